// Rebuilds dist/ when it is older than src/, once, before `npm test` runs its files two at
// a time: a test that rebuilt it itself could change dist/ under another running it.
import { ensureBuilt } from "../bench/dist.js";

await ensureBuilt();
