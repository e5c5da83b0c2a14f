import escapeHtml from 'escape-html';

/** The plain, dependency-free page shell of our server-rendered pages. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Formward</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1d2330}
label{display:block;margin:.75rem 0}input{display:block;width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{padding:.5rem 1rem;font:inherit;cursor:pointer}.error{color:#a40000}code{background:#f2f2f5;padding:0 .25rem}
</style></head>
<body>${body}</body>
</html>`;
}
