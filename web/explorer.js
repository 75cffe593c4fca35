// The explorer page: a thin client of damas serve's JSON API (/api/v1). Every value shown comes
// from the API; the board is the server's SVG (the same renderer as `damas svg`).
'use strict';
const $ = (id) => document.getElementById(id);
const state = { variant: '', fen: '', data: null, history: [], setup: false, pieces: {}, side: 'W' };
const countIds = ['plies_since_capture', 'plies_in_ending', 'forcada_plies', 'forcada_side'];
const forcadaIds = ['forcada_plies', 'forcada_side'];
const isPortuguese = () => state.variant.split('-')[0] === 'portuguese';

function showError(message) {
  $('error').textContent = message || '';
  $('error').hidden = !message;
}

async function api(path, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch('/api/v1' + path + (query ? '?' + query : ''));
  const type = response.headers.get('Content-Type') || '';
  const body = type.startsWith('application/json') ? await response.json() : await response.text();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function counts() {
  const c = { edition: $('edition').value };
  for (const id of countIds) if ($(id).value !== '') c[id] = $(id).value;
  if (!isPortuguese()) for (const id of forcadaIds) delete c[id];
  if (c.edition === 'seed') delete c.edition;
  return c;
}

function setCounts(c) {
  for (const id of countIds) $(id).value = c && c[id] !== undefined && c[id] !== null ? c[id] : (forcadaIds.includes(id) ? '' : 0);
}

function outcome(value, dtw) {
  return value + (dtw === null || dtw === undefined ? '' : ' ' + dtw);
}

// The distance of a position or a move as text: its DTW, or its MTC (plies to the next
// conversion) marked so, where its class was generated with --metric mtc; '' for a draw.
function distanceText(d) {
  if (d.mtc !== undefined) return d.mtc === null ? '' : d.mtc + ' (mtc)';
  return d.dtw === null || d.dtw === undefined ? '' : String(d.dtw);
}

// The canonical FEN the server writes ("W:W28,K32:BK5,12"), as a map square -> piece.
function parseFen(fen) {
  const pieces = {};
  const parts = fen.split(':');
  for (const part of parts.slice(1)) {
    const colour = part[0];
    for (const item of part.slice(1).split(',').filter(Boolean)) {
      const king = item.startsWith('K');
      const name = king ? item.slice(1) : item;
      const range = name.match(/^(\d+)-(\d+)$/);
      const names = range ? Array.from({ length: range[2] - range[1] + 1 }, (_, i) => String(+range[1] + i)) : [name];
      for (const n of names) pieces[n] = colour + (king ? 'K' : '');
    }
  }
  return { side: parts[0], pieces };
}

function setupFen() {
  const list = (colour) => Object.entries(state.pieces)
    .filter(([, p]) => p[0] === colour).map(([s, p]) => (p.length > 1 ? 'K' : '') + s).join(',');
  return state.side + ':W' + list('W') + ':B' + list('B');
}

async function drawBoard(fen, move) {
  const params = { fen };
  if (move) params.move = move;
  try {
    $('board').innerHTML = await api('/' + state.variant + '/svg', params);
  } catch (e) {
    showError(e.message);
    return;
  }
  for (const square of $('board').querySelectorAll('.square'))
    square.addEventListener('click', () => clickSquare(square.dataset.square));
}

function clickSquare(name) {
  if (!state.setup) return;
  const piece = document.querySelector('input[name=piece]:checked').value;
  if (piece && state.pieces[name] !== piece) state.pieces[name] = piece; else delete state.pieces[name];
  load(setupFen(), { keepHistory: true });
}

function renderSummary(d) {
  $('value').textContent = d.value;
  $('value').className = 'value ' + d.value;
  const mtc = d.mtc !== undefined, plies = mtc ? d.mtc : d.dtw;
  $('dtw').textContent = plies === null || plies === undefined ? ''
    : (mtc ? 'MTC ' : 'DTW ') + plies + (d.game_over ? ' (game over)' : '');
  const r = d.rules;
  $('rules').textContent = r ? 'under the rules: ' + r.summary + ' (' + r.count + ', ' + r.plies_left + ' plies left)'
    : (d.rules_missing || '');
  $('rules').className = r && r.differs ? 'differs' : '';
  $('class-name').textContent = 'class ' + d.class;
}

function renderMoves(d) {
  const body = $('moves').querySelector('tbody');
  body.replaceChildren();
  for (const m of d.moves) {
    const row = document.createElement('tr');
    row.dataset.move = m.move;
    row.className = m.value;
    const cells = [m.move, m.value, distanceText(m),
      m.rules ? outcome(m.rules.value, m.rules.dtr) : ''];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.appendChild(cell);
    }
    if (m.rules && m.rules.value !== m.value) row.lastChild.className = 'differs';
    row.addEventListener('click', () => play(m));
    row.addEventListener('mouseenter', () => drawBoard(d.fen, m.move));
    body.appendChild(row);
  }
}

async function load(fen, options = {}) {
  showError('');
  for (const id of forcadaIds) $(id).parentElement.hidden = !isPortuguese();
  $('line').replaceChildren();
  if (state.setup) {
    const parsed = parseFen(fen);
    state.pieces = parsed.pieces;
  }
  state.fen = fen;
  $('fen').value = fen;
  drawBoard(fen);
  try {
    const d = await api('/' + state.variant, Object.assign({ fen }, counts()));
    state.data = d;
    state.fen = d.fen;
    $('fen').value = d.fen;
    if (!options.keepUrl) history.replaceState(null, '', '#' + state.variant + '/' + encodeURIComponent(d.fen));
    renderSummary(d);
    renderMoves(d);
  } catch (e) {
    state.data = null;
    $('moves').querySelector('tbody').replaceChildren();
    $('value').textContent = '';
    $('value').className = 'value';
    $('dtw').textContent = '';
    $('rules').textContent = '';
    showError(e.message);
  }
}

function play(m) {
  state.history.push({ fen: state.fen, counts: counts() });
  setCounts(m.counts_after);
  load(m.fen_after);
}

async function optimalLine() {
  const list = $('line');
  list.replaceChildren();
  let d = state.data;
  for (let ply = 0; d && !d.game_over && d.value !== 'draw' && d.moves.length && ply < 300; ++ply) {
    const m = d.moves[0];
    const item = document.createElement('li');
    item.textContent = m.move + '  ' + outcome(m.value, distanceText(m) || null);
    const fen = m.fen_after;
    item.addEventListener('click', () => load(fen));
    list.appendChild(item);
    d = await api('/' + state.variant, { fen });
  }
  if (d && d.value === 'draw') list.insertAdjacentText('beforeend', 'draw: no forced end of the game');
}

// metric: the distance the rows count ("dtw", or "mtc": plies to the next conversion).
function histogramSvg(rows, metric) {
  const width = 360, height = 140, mid = height / 2, label = metric.toUpperCase();
  const most = Math.max(1, ...rows.map((r) => Math.max(r.wins, r.losses)));
  const last = Math.max(1, ...rows.map((r) => r[metric]));
  const bar = width / (last + 1);
  let bars = '';
  for (const r of rows) {
    const d = r[metric];
    const x = (d * bar).toFixed(1), w = Math.max(1, bar - 1).toFixed(1);
    const hw = (r.wins / most * (mid - 2)).toFixed(1), hl = (r.losses / most * (mid - 2)).toFixed(1);
    bars += `<rect class="bar-win" x="${x}" y="${mid - hw}" width="${w}" height="${hw}"><title>${label} ${d}: ${r.wins} wins</title></rect>`;
    bars += `<rect class="bar-loss" x="${x}" y="${mid}" width="${w}" height="${hl}"><title>${label} ${d}: ${r.losses} losses</title></rect>`;
  }
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${label} histogram">` +
    `<line x1="0" x2="${width}" y1="${mid}" y2="${mid}" stroke="#888"/>${bars}</svg>`;
}

async function classStats() {
  if (!state.data) return;
  const box = $('stats');
  box.textContent = 'reading class ' + state.data.class + '...';
  try {
    const s = await api('/' + state.variant + '/stats', { class: state.data.class });
    const metric = s.metric || 'dtw';
    const to = metric === 'mtc' ? ' plies to the next conversion' : ' plies';
    box.innerHTML = `<p>class ${s.class}: ${s.positions} positions, ${s.wins} wins, ${s.draws} draws, ` +
      `${s.losses} losses (White to move); longest win ${s.longest_win}${to}</p>` +
      (s.rules ? `<p>${s.rules.wins_drawn} of ${s.rules.pure_wins} quiet wins are draws under the rules (${s.rules.edition})</p>` : '') +
      histogramSvg(s.histogram, metric) + '<p>Longest wins:</p><ol id="longest"></ol>';
    for (const w of s.longest_wins) {
      const item = document.createElement('li');
      item.textContent = w.fen + '  win ' + w[metric] + (metric === 'mtc' ? ' (mtc)' : '');
      item.addEventListener('click', () => load(w.fen));
      $('longest').appendChild(item);
    }
  } catch (e) {
    box.textContent = e.message;
  }
}

function toggleSetup() {
  state.setup = !state.setup;
  $('setup').setAttribute('aria-pressed', String(state.setup));
  $('palette').hidden = !state.setup;
  $('board').classList.toggle('setup', state.setup);
  if (state.setup) {
    const parsed = parseFen(state.fen);
    state.pieces = parsed.pieces;
    state.side = parsed.side;
    $('side').textContent = state.side === 'W' ? 'White to move' : 'Black to move';
  }
}

async function start() {
  const { variants } = await api('', {});
  for (const v of variants) $('variant').add(new Option(v.name + ' (up to ' + v.largest_class + ' pieces)', v.name));
  const [hashVariant, hashFen] = location.hash.slice(1).split('/');
  const known = variants.find((v) => v.name === hashVariant);
  state.variant = known ? known.name : variants[0].name;
  $('variant').value = state.variant;
  $('variant').addEventListener('change', () => {
    state.variant = $('variant').value;
    state.history = [];
    load(variants.find((v) => v.name === state.variant).example_fen);
  });
  $('fen-form').addEventListener('submit', (e) => { e.preventDefault(); state.history.push({ fen: state.fen, counts: counts() }); load($('fen').value.trim()); });
  $('back').addEventListener('click', () => { const h = state.history.pop(); if (h) { setCounts(h.counts); load(h.fen); } });
  $('setup').addEventListener('click', toggleSetup);
  $('side').addEventListener('click', () => { state.side = state.side === 'W' ? 'B' : 'W'; $('side').textContent = state.side === 'W' ? 'White to move' : 'Black to move'; load(setupFen()); });
  $('clear').addEventListener('click', () => { state.pieces = {}; load(setupFen()); });
  for (const id of [...countIds, 'edition']) $(id).addEventListener('change', () => load(state.fen));
  $('line-button').addEventListener('click', optimalLine);
  $('stats-button').addEventListener('click', classStats);
  load(known && hashFen ? decodeURIComponent(hashFen) : (known || variants[0]).example_fen);
}

start().catch((e) => showError(e.message));
