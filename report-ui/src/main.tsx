/** The viewer's entry: read the page data, render, and mark the page ready (tests wait for it). */
import { render } from 'preact';
import { installBidiEscapes } from './bidiEscapes.js';
import { App } from './components/App.js';
import { readPage } from './data.js';
import { showBidi } from './model/bidi.js';
import './styles.css';

const root = document.getElementById('app')!;
installBidiEscapes();
try {
  render(<App page={readPage()} />, root);
} catch (err) {
  root.textContent = showBidi(
    `This report could not be shown: ${err instanceof Error ? err.message : String(err)}`,
  );
}
document.body.setAttribute('data-ready', 'true');
