/**
 * The web page of `orchestra serve`: the runs, a run's live page (picture,
 * events, questions, conversations) and a form to start one. Served by the
 * server as index.html + /assets/app.js + /assets/app.css; no other
 * request leaves the page than to the server that served it.
 */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) {
  root.replaceChildren();
  render(<App />, root);
}
