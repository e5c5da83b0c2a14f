/** Documented headers shared by several operations. */
export const LIST_HEADERS = {
  Link: 'RFC 8288: the same self/first/last/next/prev links as the body',
};
