// The placement page: draws GET /api/v1/nonstop/placement (format: PlacementDocument's javadoc) every few
// seconds. Every string from the API reaches the page through textContent or dataset, never as markup:
// component names come from users' topologies.
"use strict";

(function () {
  const API = "/api/v1/nonstop/placement";
  const DEFAULT_EVERY_S = 3;

  /** ?every=N (1..600 s) overrides the refresh interval. */
  function interval() {
    const n = Number(new URLSearchParams(window.location.search).get("every"));
    return Number.isFinite(n) && n >= 1 && n <= 600 ? n : DEFAULT_EVERY_S;
  }

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) {
      e.className = className;
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    return e;
  }

  // FNV-1a of the name picks hue and lightness: the same component keeps its colour across refreshes and
  // topologies, and two lightness steps keep neighbouring hues apart.
  function colour(name) {
    let h = 0x811c9dc5;
    for (let i = 0; i < name.length; i++) {
      h ^= name.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return "hsl(" + (h % 360) + ", 70%, " + (72 + ((h >>> 16) % 3) * 7) + "%)";
  }

  function list(v) {
    return Array.isArray(v) ? v : [];
  }

  function clock(ms) {
    const d = new Date(ms);
    return Number.isFinite(d.getTime()) ? d.toLocaleTimeString([], { hour12: false }) : "–";
  }

  function duration(ms) {
    if (typeof ms !== "number") {
      return "–";
    }
    return ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(2) + " s";
  }

  /** The last move of each executor, by topology id and executor. */
  function lastMoves(moves) {
    const latest = new Map();
    for (const m of moves) { // newest first
      const key = m.topologyId + "\u0000" + m.executor;
      if (!latest.has(key)) {
        latest.set(key, m);
      }
    }
    return latest;
  }

  function executorItem(topology, slot, ex, moved) {
    const component = String(ex.component);
    const li = el("li", "executor");
    const move = moved.get(topology.id + "\u0000" + ex.id);
    if (move && move.to === slot) {
      // Marks where the executor arrived with its last move.
      li.classList.add("moved");
      li.title = "moved here from " + move.from + " at " + clock(move.decidedAtMs);
    }
    li.dataset.topology = String(topology.name);
    li.dataset.slot = slot;
    li.dataset.executor = String(ex.id);
    li.dataset.component = component;
    li.style.backgroundColor = colour(component);
    li.append(el("span", "id", ex.id), el("span", "component", component));
    return li;
  }

  function topologySection(t, components, moved) {
    const section = el("section", "topology");
    section.dataset.topology = String(t.name);
    const title = el("h2", null, t.name);
    title.append(" ", el("span", "topology-meta", "(" + t.id + ", " + t.status + ")"));
    const nodes = el("div", "nodes");
    for (const node of list(t.nodes)) {
      const box = el("div", "node");
      box.dataset.host = String(node.host);
      box.append(el("h3", null, "node " + node.host));
      const workers = el("div", "workers");
      for (const w of list(node.workers)) {
        const worker = el("div", "worker");
        worker.dataset.slot = String(w.slot);
        worker.append(el("h4", null, "worker " + w.slot));
        const ul = el("ul", "executors");
        for (const ex of list(w.executors)) {
          components.add(String(ex.component));
          ul.append(executorItem(t, String(w.slot), ex, moved));
        }
        worker.append(ul);
        workers.append(worker);
      }
      box.append(workers);
      nodes.append(box);
    }
    section.append(title, nodes);
    return section;
  }

  function moveRow(m) {
    const tr = el("tr", "move");
    tr.dataset.topology = String(m.topology);
    tr.dataset.executor = String(m.executor);
    tr.dataset.from = String(m.from);
    tr.dataset.to = String(m.to);
    tr.append(el("td", "mono", m.executor), el("td", null, m.topology), el("td", "mono", m.from === null ? "–" : m.from),
      el("td", "mono", m.to), el("td", null, m.reason), el("td", null, duration(m.planToDecisionMs)),
      el("td", null, clock(m.decidedAtMs)));
    return tr;
  }

  function render(doc) {
    if (doc === null || typeof doc !== "object" || !Array.isArray(doc.topologies)) {
      throw new Error("the server sent no placement document");
    }
    const components = new Set();
    const moves = list(doc.moves);
    const moved = lastMoves(moves);
    const main = document.getElementById("topologies");
    const sections = doc.topologies.map((t) => topologySection(t, components, moved));
    main.replaceChildren(...(sections.length ? sections : [el("p", "empty", "No topology is running.")]));

    const legend = document.getElementById("legend");
    legend.replaceChildren(...[...components].sort().map((name) => {
      const li = el("li", "legend-item");
      li.dataset.component = name;
      const swatch = el("span", "swatch");
      swatch.style.backgroundColor = colour(name);
      li.append(swatch, el("span", null, name));
      return li;
    }));

    document.querySelector("#moves tbody").replaceChildren(...moves.map(moveRow));
    document.getElementById("no-moves").hidden = moves.length > 0;
    const unavailable = document.getElementById("moves-unavailable");
    unavailable.hidden = !doc.movesUnavailable;
    unavailable.textContent = doc.movesUnavailable ? "Moves unavailable: " + doc.movesUnavailable : "";
  }

  async function fetchDocument() {
    const resp = await fetch(API, { cache: "no-store", headers: { Accept: "application/json" } });
    let body = null;
    try {
      body = await resp.json();
    } catch (e) {
      // reported below with the status
    }
    if (!resp.ok) {
      throw new Error("HTTP " + resp.status + (body && body.errorMessage ? ": " + body.errorMessage : ""));
    }
    return body;
  }

  async function refresh(everyS) {
    const error = document.getElementById("error");
    try {
      render(await fetchDocument());
      const refreshed = document.getElementById("refreshed");
      refreshed.textContent = clock(Date.now());
      refreshed.dateTime = new Date().toISOString();
      error.hidden = true;
      error.textContent = "";
    } catch (e) {
      error.textContent = "Refresh failed at " + clock(Date.now()) + ": " + e.message;
      error.hidden = false;
    } finally {
      window.setTimeout(() => refresh(everyS), everyS * 1000);
    }
  }

  const everyS = interval();
  document.getElementById("interval").textContent = String(everyS);
  refresh(everyS);
}());
