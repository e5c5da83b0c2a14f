/** Copy-paste request examples shown with every form. */
export function formExamples(urls: { submissionUrl: string; jsonUrl: string }, html: string) {
  const sample = { email: 'jane@example.com', name: 'Jane', message: 'Hello!' };
  return {
    curl: `curl -X POST '${urls.jsonUrl}' -H 'Content-Type: application/json' -d '${JSON.stringify(sample)}'`,
    curl_form: `curl -X POST '${urls.submissionUrl}' -d email=jane@example.com -d name=Jane -d 'message=Hello!'`,
    fetch: `fetch('${urls.jsonUrl}', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(${JSON.stringify(sample)}) }).then((res) => res.json())`,
    html,
  };
}
