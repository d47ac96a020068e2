/** The viewer's entry: read the page data, render, and mark the page ready (tests wait for it). */
import { render } from 'preact';
import { App } from './components/App.js';
import { readPage } from './data.js';
import './styles.css';

const root = document.getElementById('app')!;
try {
  render(<App page={readPage()} />, root);
} catch (err) {
  root.textContent = `This report could not be shown: ${err instanceof Error ? err.message : String(err)}`;
}
document.body.setAttribute('data-ready', 'true');
