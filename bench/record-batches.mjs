// The records of a csv-parse stream in batches (every record parsed so far), as a careful script reads them: one
// promise a batch instead of one a record (`for await` over the parser costs about a third more CPU, issue 15).
export async function* recordBatches(parser) {
  let ended = false;
  let failure;
  parser.on('end', () => (ended = true));
  parser.on('error', (error) => (failure = error));
  for (;;) {
    const batch = [];
    for (let record = parser.read(); record !== null; record = parser.read()) batch.push(record);
    if (failure) throw failure;
    if (batch.length) yield batch;
    else if (ended) return;
    else
      await new Promise((resolve) => {
        const done = () => {
          for (const event of ['readable', 'end', 'error']) parser.off(event, done);
          resolve();
        };
        for (const event of ['readable', 'end', 'error']) parser.on(event, done);
      });
  }
}
