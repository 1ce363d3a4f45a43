// A node:test reporter that writes one JSON line per skipped test or suite ({file, name,
// reason}), beside the spec reporter: scripts/run-tests.mjs reads it to list every skip at
// the end of the run.
export default async function* skipReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, file, name } = event.data;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ file, name, reason: skip === true ? '(no reason given)' : String(skip) })}\n`;
  }
}
