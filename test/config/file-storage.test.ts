import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

// FILE_STORAGE_URL (docs/running.md, File storage), validated at start-up with the rest.
const credentials = { AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'secret-test' };

describe('FILE_STORAGE_URL', () => {
  it('empty or unset keeps files in PostgreSQL', () => {
    expect(loadConfig({}).fileStorage).toEqual({ kind: 'postgres' });
    expect(loadConfig({ FILE_STORAGE_URL: ' ' }).fileStorage).toEqual({ kind: 'postgres' });
  });

  it('reads bucket, prefix, endpoint, region, path style and the AWS credentials', () => {
    const config = loadConfig({
      FILE_STORAGE_URL:
        's3://formward-files/prod/uploads?endpoint=https://s3.example.net:9000&region=eu-west-1&force_path_style=true',
      ...credentials,
    });
    expect(config.fileStorage).toEqual({
      kind: 's3',
      bucket: 'formward-files',
      prefix: 'prod/uploads/',
      endpoint: 'https://s3.example.net:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test' },
      display: 's3://formward-files/prod/uploads/ at https://s3.example.net:9000',
    });
  });

  it('AWS S3 itself: no endpoint, us-east-1, virtual-host style, the SDK finds credentials', () => {
    expect(loadConfig({ FILE_STORAGE_URL: 's3://formward-files' }).fileStorage).toEqual({
      kind: 's3',
      bucket: 'formward-files',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
      display: 's3://formward-files/',
    });
  });

  it.each([
    ['https://bucket.example.net', /unsupported scheme https:/],
    ['s3://KEY:SECRET@bucket', /no credentials in the URL/],
    ['s3://Bad_Bucket', /not a valid bucket name/],
    ['s3://bucket?endpoint=ftp://host', /endpoint must be an http\(s\) URL/],
    ['s3://bucket?force_path_style=yes', /force_path_style must be true or false/],
    ['s3://bucket?acl=public-read', /unknown parameter\(s\) acl/],
  ])('refuses %s', (url, message) => {
    expect(() => loadConfig({ FILE_STORAGE_URL: url })).toThrow(message);
  });

  it('refuses half a credential pair', () => {
    expect(() =>
      loadConfig({ FILE_STORAGE_URL: 's3://bucket', AWS_ACCESS_KEY_ID: 'AKIDTEST' }),
    ).toThrow(/both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });
});
