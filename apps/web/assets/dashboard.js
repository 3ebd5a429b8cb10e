// The caracara dashboard: the pool as its central manager serves it
// (/api/v1), drawn as hand-written SVG with no library and no request to
// anywhere but this endpoint. The over-time graphs read the pool history
// (KEEP_POOL_HISTORY) and add the live figures of each refresh; without a
// history they grow from the refreshes alone.
"use strict";

const REFRESH_MS = 5000;
const WINDOW_S = 6 * 3600;
const PALETTE = ["#2f6fde", "#e8702a", "#2a9d5c", "#c23b5d", "#7b57c7", "#a37c13", "#1b9aaa", "#6b7480",
                 "#d14dab", "#4f8a10"];
const SVG = "http://www.w3.org/2000/svg";

// series[kind][name] = [[time, value], ...]: kept between refreshes.
const live = { groupRunning: {}, groupIdle: {}, userRunning: {}, userIdle: {}, cycles: {} };
let colours = {};

function colour(name) {
  if (!(name in colours)) colours[name] = PALETTE[Object.keys(colours).length % PALETTE.length];
  return colours[name];
}

async function get(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) {
    const e = new Error(path + ": " + r.status + " " + (await r.text()).trim());
    e.status = r.status;
    throw e;
  }
  return r.json();
}

function el(name, attrs, text) {
  const e = name.startsWith("svg:") ? document.createElementNS(SVG, name.slice(4)) : document.createElement(name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function fmt(v) {
  if (typeof v !== "number") return "–";
  return Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 1);
}

function addPoint(series, name, t, v) {
  const s = (series[name] = series[name] || []);
  if (s.length && s[s.length - 1][0] === t) s[s.length - 1][1] = v;
  else if (!s.length || s[s.length - 1][0] < t) s.push([t, v]);
  else {
    s.push([t, v]);
    s.sort((a, b) => a[0] - b[0]);
  }
}

// A line chart of `series` (name → points) in `box`, with a legend that
// names each line and its latest value.
function lineChart(box, series, unit) {
  box.replaceChildren();
  const names = Object.keys(series).filter((n) => series[n].length).sort();
  if (!names.length) {
    box.append(el("div", { class: "empty" }, "no data yet"));
    return;
  }
  const W = 640, H = 220, L = 44, R = 10, T = 10, B = 24;
  let t0 = Infinity, t1 = -Infinity, vmax = 0;
  for (const n of names)
    for (const [t, v] of series[n]) {
      t0 = Math.min(t0, t); t1 = Math.max(t1, t); vmax = Math.max(vmax, v);
    }
  if (t1 === t0) t0 = t1 - 60;
  if (vmax === 0) vmax = 1;
  const x = (t) => L + ((t - t0) / (t1 - t0)) * (W - L - R);
  const y = (v) => T + (1 - v / vmax) * (H - T - B);
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img" });
  svg.append(el("svg:line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
  svg.append(el("svg:line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }));
  for (const f of [0, 0.5, 1]) {
    svg.append(el("svg:text", { x: L - 4, y: y(vmax * f) + 4, "text-anchor": "end" }, fmt(vmax * f)));
  }
  for (const t of [t0, t1]) {
    svg.append(el("svg:text", { x: x(t), y: H - 6, "text-anchor": t === t0 ? "start" : "end" },
                  new Date(t * 1000).toLocaleTimeString()));
  }
  const legend = el("div", { class: "legend" });
  for (const n of names) {
    const pts = series[n];
    const d = pts.map(([t, v], i) => (i ? "L" : "M") + x(t).toFixed(1) + "," + y(v).toFixed(1)).join(" ");
    const g = el("svg:g", { "data-series": n });
    g.append(el("svg:path", { d, fill: "none", stroke: colour(n), "stroke-width": 2 }));
    if (pts.length === 1) g.append(el("svg:circle", { cx: x(pts[0][0]), cy: y(pts[0][1]), r: 3, fill: colour(n) }));
    svg.append(g);
    const last = pts[pts.length - 1][1];
    const item = el("span", { "data-series": n, "data-value": last, style: `--swatch:${colour(n)}` },
                    `${n}: ${fmt(last)}${unit || ""}`);
    legend.append(item);
  }
  box.append(svg, legend);
}

// Horizontal bars: one row per item, its parts as thin bars one above
// the other, and their values written after the longest.
function barChart(box, rows, parts) {
  box.replaceChildren();
  if (!rows.length) {
    box.append(el("div", { class: "empty" }, "nothing to show"));
    return;
  }
  const W = 900, bar = 9, gap = 10, L = 170, R = 260;
  const rowH = parts.length * bar + gap;
  const max = Math.max(1, ...rows.flatMap((r) => parts.map((p) => r[p.key] || 0)));
  const H = rows.length * rowH + 4;
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img" });
  rows.forEach((r, i) => {
    const g = el("svg:g", { "data-name": r.name });
    const y0 = 4 + i * rowH;
    g.append(el("svg:text", { x: 0, y: y0 + (parts.length * bar) / 2 + 4 }, r.name));
    let longest = 0;
    parts.forEach((p, j) => {
      const v = r[p.key] || 0;
      const w = (v / max) * (W - L - R);
      longest = Math.max(longest, w);
      g.append(el("svg:rect", { x: L, y: y0 + j * bar, width: Math.max(w, 1), height: bar - 2, fill: p.colour,
                                "data-part": p.key, "data-value": v }));
    });
    const label = parts.map((p) => `${p.label ? p.label + " " : ""}${fmt(r[p.key] || 0)}`).join(" · ");
    g.append(el("svg:text", { x: L + longest + 6, y: y0 + (parts.length * bar) / 2 + 4 }, label));
    svg.append(g);
  });
  box.append(svg);
}

function fillTable(id, rows, key, cells) {
  const body = document.querySelector(`#${id} tbody`);
  body.replaceChildren();
  for (const r of rows) {
    const tr = el("tr", { [`data-${key}`]: r.name ?? `${r.state}/${r.activity}` });
    for (const [field, value, numeric] of cells(r)) {
      const td = el("td", { "data-field": field, class: numeric ? "n" : "" }, numeric ? fmt(value) : String(value));
      tr.append(td);
    }
    body.append(tr);
  }
}

function cards(status) {
  const box = document.getElementById("cards");
  box.replaceChildren();
  const items = [["machines", "Machines", status.machines], ["slots", "Slots", status.total_slots],
                 ["cpus", "Cpus in use", `${fmt(status.cpus_in_use)} / ${fmt(status.cpus)}`],
                 ["running", "Running jobs", status.jobs.running], ["idle", "Idle jobs", status.jobs.idle],
                 ["held", "Held jobs", status.jobs.held]];
  const down = status.daemons.filter((d) => !d.up);
  items.push(["down", "Daemons down", down.length]);
  for (const [key, label, value] of items) {
    const c = el("div", { class: "card", "data-card": key });
    c.append(el("div", { class: "value" + (key === "down" && value ? " down" : "") }, String(value)),
             el("div", { class: "label" }, label));
    box.append(c);
  }
}

function historySeries(rows) {
  for (const r of rows) {
    if (r.MyType === "GroupHistory") {
      addPoint(live.groupRunning, r.Name, r.Time, r.RunningJobs);
      addPoint(live.groupIdle, r.Name, r.Time, r.IdleJobs);
    } else if (r.MyType === "SubmitterHistory") {
      addPoint(live.userRunning, r.Name, r.Time, r.RunningJobs);
      addPoint(live.userIdle, r.Name, r.Time, r.IdleJobs);
    } else if (r.MyType === "NegotiatorHistory" && r.CycleTime > 0) {
      addPoint(live.cycles, r.Name, r.CycleTime, r.CycleDuration * 1000);
    }
  }
}

function trim(now) {
  for (const kind of Object.values(live))
    for (const n of Object.keys(kind)) kind[n] = kind[n].filter(([t]) => t >= now - WINDOW_S);
}

let historyFrom = null;
let historyState = "unknown";

async function refresh() {
  const state = document.getElementById("pool-state");
  try {
    const [status, groups, users] = await Promise.all([get("/api/v1/status"), get("/api/v1/groups"),
                                                       get("/api/v1/submitters")]);
    const now = status.time;
    // The history since the last refresh (none when no time has passed).
    if (historyFrom === null || historyFrom <= now) {
      try {
        const from = historyFrom === null ? now - WINDOW_S : historyFrom;
        const h = await get(`/api/v1/history?from=${from}&to=${now}`);
        historySeries(h.rows);
        historyFrom = now + 1;
        historyState = "kept";
      } catch (e) {
        historyState = e.status === 404 ? "not kept (live only)" : "unavailable";
      }
    }
    for (const g of groups.groups) {
      addPoint(live.groupRunning, g.name, now, g.jobs.running);
      addPoint(live.groupIdle, g.name, now, g.jobs.idle);
    }
    for (const u of users.submitters) {
      addPoint(live.userRunning, u.name, now, u.jobs.running);
      addPoint(live.userIdle, u.name, now, u.jobs.idle);
    }
    for (const n of status.negotiators)
      if (n.last_cycle.time > 0)
        addPoint(live.cycles, n.name, n.last_cycle.time, n.last_cycle.duration_seconds * 1000);
    trim(now);

    cards(status);
    lineChart(document.getElementById("chart-group-running"), live.groupRunning);
    lineChart(document.getElementById("chart-group-idle"), live.groupIdle);
    lineChart(document.getElementById("chart-user-running"), live.userRunning);
    lineChart(document.getElementById("chart-user-idle"), live.userIdle);
    lineChart(document.getElementById("chart-cycles"), live.cycles, " ms");

    const quota = groups.groups.filter((g) => g.quota !== undefined);
    barChart(document.getElementById("quota-bars"), quota, [
      { key: "quota", label: "quota", colour: "#b7c6dd" },
      { key: "allocated", label: "allocated", colour: "#2f6fde" },
      { key: "in_use", label: "in use", colour: "#2a9d5c" }]);
    fillTable("groups-table", groups.groups, "group", (g) => [
      ["name", g.name], ["submitters", g.submitters, true], ["running", g.jobs.running, true],
      ["idle", g.jobs.idle, true], ["held", g.jobs.held, true], ["quota", g.quota, true],
      ["allocated", g.allocated, true], ["in_use", g.in_use, true]]);

    const states = {};
    for (const s of status.slots) states[s.state] = (states[s.state] || 0) + s.slots;
    barChart(document.getElementById("slot-bars"),
             Object.entries(states).map(([name, slots]) => ({ name, slots })),
             [{ key: "slots", label: "", colour: "#2f6fde" }]);
    fillTable("slots-table", status.slots, "slot", (s) => [
      ["state", s.state], ["activity", s.activity], ["slots", s.slots, true], ["cpus", s.cpus, true]]);
    fillTable("cycles-table", status.negotiators, "negotiator", (n) => [
      ["name", n.name], ["active", n.active ? "yes" : "no"], ["term", n.term, true], ["cycles", n.cycles, true],
      ["duration_ms", n.last_cycle.duration_seconds * 1000, true], ["matches", n.last_cycle.matches, true]]);
    fillTable("users-table", users.submitters, "submitter", (u) => [
      ["name", u.name], ["group", u.group], ["running", u.jobs.running, true], ["idle", u.jobs.idle, true],
      ["held", u.jobs.held, true], ["effective_priority", u.effective_priority, true],
      ["priority_factor", u.priority_factor, true]]);

    const active = status.negotiators.find((n) => n.active);
    const ha = status.ha ? ` · this central manager: ${status.ha.active ? "active" : "standby"} (term ${status.ha.term})` : "";
    state.textContent = `updated ${new Date(now * 1000).toLocaleTimeString()} · negotiator ${
      active ? active.name : "none"}${ha} · history: ${historyState}`;
    document.body.dataset.updated = String(now);
    document.body.dataset.ready = "1";
  } catch (e) {
    state.textContent = "cannot reach the pool: " + e.message;
    document.body.dataset.error = e.message;
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
