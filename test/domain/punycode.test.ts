import { describe, expect, it } from 'vitest';
import { decodePunycode } from '../../src/domain/domains/punycode';

describe('decodePunycode (RFC 3492)', () => {
  // Sample strings of RFC 3492 section 7.1, and labels of real IDNs.
  it.each([
    ['egbpdaj6bu4bxfgehfvwxn', 'ليهمابتكلموشعربي؟'],
    ['ihqwcrb4cv8a8dqg056pqjye', '他们为什么不说中文'],
    ['b1abfaaepdrnnbgefbadotcwatmq2g4l', 'почемужеонинеговорятпорусски'],
    ['PorqunopuedensimplementehablarenEspaol-fmd56a', 'PorquénopuedensimplementehablarenEspañol'],
    ['3B-ww4c5e180e575a65lsy2b', '3年B組金八先生'],
    ['-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n', '安室奈美恵-with-SUPER-MONKEYS'],
    ['bcher-kva', 'bücher'],
    ['ls8h', '💩'],
    ['nxa', 'β'],
    ['dn32g', '\u{10ffff}'],
    ['', ''],
  ])('%j -> %j', (input, text) => {
    expect(decodePunycode(input)).toBe(text);
  });

  it.each([
    ['zz', 'ends inside a number'],
    ['9', 'ends inside a number'],
    ['a-b_c', 'holds a character that is no digit'],
    ['ü-kva', 'a non-ASCII basic part'],
    ['99999999999', 'overflows'],
    ['en32g', 'decodes to U+110000, past U+10FFFF'],
    ['ib9b', 'decodes to U+D800, a surrogate'],
  ])('refuses %j (%s)', (input) => {
    expect(decodePunycode(input)).toBeNull();
  });
});
