// Loaded with `node --import` by a test: records the file of every ES module the process
// loads (one URL a line) in the file named by ORCHESTRA_TEST_LOADS.
import { register } from 'node:module';

register(new URL('./record-loads-hooks.mjs', import.meta.url), { data: { file: process.env.ORCHESTRA_TEST_LOADS } });
