// Charts through Chart.js (Debian's libjs-chart.js, served by the service at /vendor/chart.js).
// When it is not installed the caller's table is shown instead: every chart has a table twin.
import { h } from './dom.js';

let loading = null;

/** Resolves to the global `Chart` constructor, or null when Chart.js is unavailable. */
export function loadChartJS() {
  if (window.Chart) return Promise.resolve(window.Chart);
  if (!loading) {
    loading = new Promise((resolve) => {
      const script = document.createElement('script');
      script.src = '/vendor/chart.js';
      script.async = true;
      script.onload = () => resolve(window.Chart || null);
      script.onerror = () => resolve(null);
      document.head.appendChild(script);
    });
  }
  return loading;
}

export function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/**
 * A chart box: shows `table()` at once (so nothing waits on Chart.js), then swaps in a canvas with
 * `config(Chart)` when Chart.js loads. The table stays reachable under "Show as table".
 */
export function chartBox({ label, config, table, height = 180 }) {
  const box = h('figure', { class: 'chart-box', dataset: { chart: 'pending' } });
  const tableHolder = h('div', { class: 'chart-table' }, table());
  box.appendChild(tableHolder);
  loadChartJS().then((Chart) => {
    if (!Chart) {
      box.dataset.chart = 'unavailable';
      box.appendChild(h('figcaption', { class: 'muted small',
        text: 'Chart.js is not installed on the server (Debian package libjs-chart.js): showing a table.' }));
      return;
    }
    let tries = 0;
    const draw = () => {
      if (!box.isConnected) {
        // Built before being attached: wait a few frames, then give up (the view was left).
        if (++tries < 30) requestAnimationFrame(draw);
        return;
      }
      const canvasHolder = h('div', { class: 'chart-canvas' });
      canvasHolder.style.height = height + 'px';
      const canvas = h('canvas', { attrs: { role: 'img', 'aria-label': label } });
      canvasHolder.appendChild(canvas);
      const details = h('details', { class: 'chart-table-toggle' }, h('summary', { text: 'Show as table' }));
      tableHolder.replaceWith(canvasHolder);
      details.appendChild(tableHolder);
      box.appendChild(details);
      box.chart = new Chart(canvas, config(Chart));
      box.dataset.chart = 'drawn';
    };
    draw();
  });
  return box;
}

export function baseOptions() {
  const text = cssVar('--muted') || '#57606a';
  const grid = cssVar('--grid') || '#eaeef2';
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index', intersect: false },
    plugins: { legend: { display: false }, tooltip: { displayColors: true } },
    scales: {
      x: { ticks: { color: text, maxRotation: 0, autoSkipPadding: 12, font: { size: 11 } }, grid: { display: false } },
      y: { ticks: { color: text, font: { size: 11 } }, grid: { color: grid }, beginAtZero: true },
    },
  };
}
