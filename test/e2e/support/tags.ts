/**
 * What a migration holding the bootstrap project's searchable `tags` must serve
 * (test/e2e/bootstrap.test.ts, test/e2e/dev-migrations.test.ts).
 */
import assert from "node:assert/strict";
import type { JsonClient } from "../../support/http.js";

/** A POST retried with its Idempotency-Key makes one tag, and `?q=` finds it by trigram; returns the tag. */
export async function expectSearchableTags(api: JsonClient): Promise<{ id: number }> {
  const retried = { "idempotency-key": "tag-routine-1" };
  const first = await api.with(retried).post("/tags", { label: "routine" });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const replayed = await api.with(retried).post("/tags", { label: "routine" });
  assert.deepEqual([replayed.status, replayed.body, replayed.headers.get("idempotent-replayed")], [201, first.body, "true"]);
  const searched = await api.get("/tags?q=rout");
  assert.equal(searched.status, 200, JSON.stringify(searched.body));
  assert.deepEqual(searched.body.items.map((item: { label: string }) => item.label), ["routine"]);
  return first.body;
}
