import pg from "pg";

/**
 * When each of `filingIds` had its PDFs rendered (the latest `generated_at` of its ct600_pdf /
 * accounts_pdf rows), read from the filing service's own database: asking through the API would
 * render a missing PDF on request and so hide a backlog of the documents consumer.
 */
export async function pdfTimes(databaseUrl: string, filingIds: readonly string[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ filing_id: string; at: Date }>(
      `SELECT filing_id, max(generated_at) AS at FROM documents
       WHERE type IN ('ct600_pdf', 'accounts_pdf') AND filing_id = ANY($1::text[])
       GROUP BY filing_id`,
      [filingIds],
    );
    return new Map(rows.map((row) => [row.filing_id, row.at.getTime()]));
  } finally {
    await client.end();
  }
}

/** Waits until every one of `filingIds` has its PDFs (one a second), or the deadline; answers the last count. */
export async function settlePdfs(databaseUrl: string, filingIds: readonly string[], deadline: number): Promise<Map<string, number>> {
  for (;;) {
    const times = await pdfTimes(databaseUrl, filingIds);
    if (times.size >= filingIds.length || Date.now() >= deadline) return times;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
