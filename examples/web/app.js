// The reference search page of jobsd: plain ES modules, fetch() POSTing
// GraphQL, no build step and nothing from a CDN. It reads the search box
// through the service (see readings), pages through the Query.jobs
// connection with first/after as the list scrolls, filters by facet
// values, shows a job (or that it closed) through Query.node, and keeps
// the list current through Subscription.jobChanges (see watch).

const PAGE_SIZE = 10;
const endpoint = meta("jobsd-endpoint") || "/graphql";

// The facets shown beside the results, and the filter member each one's
// values set when clicked (the values of enum-typed fields come spelled
// as the enum, as the filter takes them).
const FACETS = [
  { field: "WORK_ARRANGEMENT", label: "Work arrangement", member: "workArrangement", list: true },
  { field: "EMPLOYMENT_TYPE", label: "Employment type", member: "employmentType", list: true },
  { field: "CATEGORY_ROLE", label: "Role", member: "categoryRole", list: false },
  { field: "COMPANY", label: "Company", member: "company", list: false },
];

const CARD_FIELDS = `id title company companyLogo postedAt summary location { full }
  workArrangement employmentType salary { min max currency period } category { role specialization } distanceKm`;

const SEARCH = `query Search($filter: JobFilter, $first: Int, $after: String, $sort: JobSort, $withFacets: Boolean!) {
  jobs(filter: $filter, first: $first, after: $after, sort: $sort) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { ${CARD_FIELDS} } }
    facets(fields: [${FACETS.map((f) => f.field).join(", ")}], limit: 6) @include(if: $withFacets) {
      field values { value count }
    }
    normalized @include(if: $withFacets) {
      q skills location { city state country workArrangement } near { place radiusKm }
    }
  }
}`;

const JOB = `query Job($id: ID!) {
  node(id: $id) {
    id
    ... on Job {
    title company companyLogo url postedAt summary description
    location { full } workArrangement employmentType experienceLevel
    salary { min max currency period } category { field role specialization }
    skills benefits visaSponsorship
    }
  }
}`;

// The changes of the search shown, pushed over a WebSocket.
const LIVE = `subscription Live($filter: JobFilter) {
  jobChanges(filter: $filter) { kind id card { ${CARD_FIELDS} } }
}`;

const $ = (id) => document.getElementById(id);
const state = {
  reading: null, // the filter the box was read as
  chosen: {}, // facet field → the value clicked
  after: null,
  hasNext: false,
  loading: false,
  generation: 0, // bumped by each new search; older answers are dropped
  resultsScroll: 0,
};

// live is the subscription to the search shown: the client (one socket
// for the page), how to stop the current subscription, and the ids of the
// postings that came into the search since it was listed.
const live = { client: null, stop: null, fresh: new Set() };

function meta(name) {
  const el = document.querySelector(`meta[name="${name}"]`);
  return el ? el.content.trim() : "";
}

function apiKey() {
  return meta("jobsd-api-key") || sessionStorage.getItem("jobsd-api-key") || "";
}

// gql POSTs one GraphQL operation and returns its {data, errors}; a
// transport failure or a refused request throws an Error whose code is
// the contract's error code when the service gave one.
async function gql(query, variables) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey() },
    body: JSON.stringify({ query, variables }),
  });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new Error(`The service answered ${res.status} without a GraphQL response.`);
  }
  if (!body.data && body.errors && body.errors.length) {
    const err = new Error(body.errors[0].message);
    err.code = body.errors[0].extensions && body.errors[0].extensions.code;
    throw err;
  }
  return body;
}

// readings lists the ways the box's words can be read, as JobFilters:
// all of them as keywords, or the last one to three words as a place (the
// service reads "SF" or "Austin, TX") and the words before them as a skill
// or as keywords. With a distance in miles (the "within" selector), each
// place is read as a city to search around first (near), and exactly as
// well, for places that are no city ("remote", "Texas"). The page keeps
// the reading that finds the most jobs.
export function readings(text, withinMiles) {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [{}];
  const out = [{ q: words.join(" ") }];
  for (let k = 1; k <= Math.min(3, words.length); k++) {
    const location = words.slice(words.length - k).join(" ");
    const what = words.slice(0, words.length - k).join(" ");
    if (what === "") out.push({ location });
    else out.push({ skills: [what], location }, { q: what, location });
  }
  if (!withinMiles) return out;
  const near = out
    .filter((f) => f.location)
    .map(({ location, ...rest }) => ({ ...rest, near: { place: location, radius: withinMiles, unit: "MI" } }));
  return [...near, ...out];
}

async function readBox(text) {
  const candidates = readings(text, Number($("within").value) || 0);
  if (candidates.length === 1) return candidates[0];
  const vars = candidates.map((_, i) => `$f${i}: JobFilter`).join(", ");
  const fields = candidates.map((_, i) => `r${i}: jobs(filter: $f${i}, first: 1) { totalCount }`).join("\n");
  const variables = Object.fromEntries(candidates.map((c, i) => [`f${i}`, c]));
  // A reading the service refuses (a place it cannot read) is an error on
  // its own alias only; the others still count.
  const { data } = await gql(`query Readings(${vars}) {\n${fields}\n}`, variables);
  let best = 0;
  let bestTotal = -1;
  candidates.forEach((_, i) => {
    const page = data && data[`r${i}`];
    const total = page ? page.totalCount : -1;
    if (total > bestTotal) [best, bestTotal] = [i, total];
  });
  return candidates[best];
}

// describe says how the box was read: the words as the page split them,
// and what the service made of them (the page's normalized filter).
function describe(filter, normalized) {
  const parts = [];
  const n = normalized || {};
  const loc = n.location || {};
  const place = [...(loc.city || []), ...(loc.state || []), ...(loc.country || [])].join(", ");
  if (filter.categoryRole) parts.push(`title “${filter.categoryRole}”`);
  if (filter.categorySpecialization) parts.push(`title “${filter.categorySpecialization}”`);
  if (filter.company) parts.push(`company “${filter.company}”`);
  if (filter.skills) parts.push(`skill “${filter.skills.join(", ")}”${n.skills ? ` (${n.skills.join(", ")})` : ""}`);
  if (filter.q) parts.push(`keywords “${filter.q}”`);
  if (filter.location) parts.push(`in “${filter.location}”${place ? ` (${place})` : ""}`);
  if (filter.near) {
    const where = n.near && n.near.place ? ` (${n.near.place})` : "";
    parts.push(`within ${filter.near.radius} mi of “${filter.near.place}”${where}, nearest first`);
  }
  if (loc.workArrangement && loc.workArrangement.length) parts.push(`${loc.workArrangement.map(pretty).join(", ")} work`);
  return parts.length ? `Read as ${parts.join(" ")}.` : "All jobs.";
}

function currentFilter() {
  const filter = { ...state.reading };
  for (const f of FACETS) {
    const v = state.chosen[f.field];
    if (v !== undefined) filter[f.member] = f.list ? [v] : v;
  }
  return filter;
}

async function search(text) {
  const generation = ++state.generation;
  setStatus("Searching…");
  $("cards").replaceChildren();
  $("more").hidden = true;
  try {
    const reading = await readBox(text);
    if (generation !== state.generation) return;
    state.reading = reading;
    state.chosen = {};
    $("reading").textContent = describe(reading);
    await loadPage(true);
  } catch (err) {
    showError(err);
  }
}

// Suggestions while typing (Query.suggest): the box's text completed to
// titles, skills, companies and places, each with its jobs, in one
// request. Picking one searches its filter exactly.
const SUGGEST = `query Suggest($prefix: String!) {
  title: suggest(field: TITLE, prefix: $prefix, limit: 3) { value count filter { categoryRole categorySpecialization } }
  skills: suggest(field: SKILLS, prefix: $prefix, limit: 3) { value count filter { skills } }
  company: suggest(field: COMPANY, prefix: $prefix, limit: 2) { value count filter { company } }
  location: suggest(field: LOCATION, prefix: $prefix, limit: 2) { value count filter { location } }
}`;

const suggesting = { items: [], active: -1, generation: 0, timer: null, picked: false };

// suggest asks for the suggestions of the box's text, shortly after the
// last keystroke; an answer older than the text is dropped.
function suggestSoon() {
  clearTimeout(suggesting.timer);
  suggesting.timer = setTimeout(async () => {
    const prefix = $("box").value.trim();
    const generation = ++suggesting.generation;
    if (prefix === "") return closeSuggestions();
    try {
      const { data } = await gql(SUGGEST, { prefix });
      if (generation !== suggesting.generation || !data) return;
      const items = [];
      for (const kind of ["title", "skills", "company", "location"]) {
        for (const s of data[kind] || []) items.push({ kind, ...s });
      }
      renderSuggestions(items);
    } catch {
      closeSuggestions();
    }
  }, 120);
}

function renderSuggestions(items) {
  suggesting.items = items;
  suggesting.active = -1;
  const list = $("suggestions");
  list.replaceChildren(
    ...items.map((s, i) => {
      const li = el(
        "li",
        { id: `suggestion-${i}`, role: "option", "aria-selected": "false" },
        el("span", {}, s.value, el("span", { class: "kind" }, s.kind)),
        el("span", { class: "count" }, s.count.toLocaleString("en-US"), el("span", { class: "sr-only" }, s.count === 1 ? " job" : " jobs")),
      );
      // mousedown, not click: the box keeps its focus.
      li.addEventListener("mousedown", (e) => {
        e.preventDefault();
        pickSuggestion(i);
      });
      return li;
    }),
  );
  list.hidden = items.length === 0;
  $("box").setAttribute("aria-expanded", String(items.length > 0));
  $("box").removeAttribute("aria-activedescendant");
}

function closeSuggestions() {
  suggesting.items = [];
  suggesting.active = -1;
  $("suggestions").hidden = true;
  $("box").setAttribute("aria-expanded", "false");
  $("box").removeAttribute("aria-activedescendant");
}

function moveSuggestion(by) {
  const n = suggesting.items.length;
  if (n === 0) return;
  // -1 is the box itself: past either end, back to it.
  let a = suggesting.active + by;
  if (a >= n) a = -1;
  else if (a < -1) a = n - 1;
  suggesting.active = a;
  [...$("suggestions").children].forEach((li, i) => li.setAttribute("aria-selected", String(i === suggesting.active)));
  if (suggesting.active >= 0) $("box").setAttribute("aria-activedescendant", `suggestion-${suggesting.active}`);
  else $("box").removeAttribute("aria-activedescendant");
}

// pickSuggestion searches the suggestion's filter: the box shows its
// value, and the list is read as exactly that filter.
function pickSuggestion(i) {
  const s = suggesting.items[i];
  if (!s) return;
  clearTimeout(suggesting.timer);
  suggesting.generation++;
  closeSuggestions();
  $("box").value = s.value;
  const filter = Object.fromEntries(Object.entries(s.filter).filter(([, v]) => v !== null));
  ++state.generation;
  state.reading = filter;
  state.chosen = {};
  $("reading").textContent = describe(filter);
  if (location.hash) history.pushState(null, "", location.pathname + location.search);
  showResults();
  loadPage(true);
}

// liveClient returns the page's graphql-ws client, or null when the
// client's script did not load (the page served without jobsd's assets).
function liveClient() {
  if (!window.graphqlWs) return null;
  if (!live.client) {
    live.client = window.graphqlWs.createClient({
      url: new URL(endpoint, location.href).href.replace(/^http/, "ws"),
      // A browser cannot set a WebSocket's headers: the key goes in
      // connection_init.
      connectionParams: () => ({ "x-api-key": apiKey() }),
      lazy: true,
    });
  }
  return live.client;
}

// watch subscribes to the changes of the search of filter, ending the
// subscription of the search before. It subscribes before the list is
// read, so that nothing that lands in between is missed: an ADDED posting
// already listed is not new.
function watch(filter) {
  if (live.stop) live.stop();
  live.stop = null;
  live.fresh.clear();
  renderNewJobs();
  const client = liveClient();
  if (!client) return;
  live.stop = client.subscribe(
    { query: LIVE, variables: { filter } },
    { next: ({ data }) => onChange(data && data.jobChanges), error: () => {}, complete: () => {} },
  );
}

// onChange applies one event to the page: a posting new to the search is
// counted ("3 new jobs"), a listed one that changed is drawn again, one
// that left the search (closed, or changed out of it) is marked closed.
function onChange(ev) {
  if (!ev) return;
  const shown = document.querySelector(`#cards .card[data-id="${CSS.escape(ev.id)}"]`);
  if (ev.kind === "ADDED" && !shown) live.fresh.add(ev.id);
  else if (ev.kind === "UPDATED" && shown && ev.card) shown.replaceWith(renderCard(ev.card));
  else if (ev.kind === "REMOVED") {
    live.fresh.delete(ev.id);
    if (shown) shown.classList.add("closed");
  }
  renderNewJobs();
}

function renderNewJobs() {
  const n = live.fresh.size;
  const button = $("new-jobs");
  button.hidden = n === 0;
  button.dataset.count = String(n);
  button.textContent = `${n.toLocaleString("en-US")} new ${n === 1 ? "job" : "jobs"} — show`;
}

// loadPage fetches the first page (fresh) with the facets, or the page
// after the last card shown.
async function loadPage(fresh) {
  const generation = fresh ? ++state.generation : state.generation;
  if (fresh) {
    state.after = null;
    $("cards").replaceChildren();
    watch(currentFilter());
  }
  state.loading = true;
  try {
    const filter = currentFilter();
    const { data, errors } = await gql(SEARCH, {
      filter,
      first: PAGE_SIZE,
      after: state.after,
      sort: filter.near ? "DISTANCE" : null,
      withFacets: fresh,
    });
    if (generation !== state.generation) return;
    if (!data || !data.jobs) throw new Error(errors && errors.length ? errors[0].message : "No answer.");
    const page = data.jobs;
    const total = page.totalCount;
    setStatus(`${total.toLocaleString("en-US")} ${total === 1 ? "job" : "jobs"}`);
    $("status").dataset.total = String(total);
    for (const { node } of page.edges) $("cards").append(renderCard(node));
    state.after = page.pageInfo.endCursor;
    state.hasNext = page.pageInfo.hasNextPage;
    $("more").hidden = !state.hasNext;
    if (fresh) {
      renderFacets(page.facets || []);
      $("reading").textContent = describe(state.reading, page.normalized);
    }
  } catch (err) {
    if (generation === state.generation) showError(err);
  } finally {
    if (generation === state.generation) {
      state.loading = false;
      // Observe afresh: when the sentinel is still in view (a short page
      // or a tall window) the observer reports it again and the next page
      // loads.
      observer.unobserve($("sentinel"));
      if (state.hasNext) observer.observe($("sentinel"));
    }
  }
}

function loadMore() {
  if (state.loading || !state.hasNext) return;
  loadPage(false);
}

const observer = new IntersectionObserver(
  (entries) => {
    if (entries.some((e) => e.isIntersecting)) loadMore();
  },
  { rootMargin: "200px" },
);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== "") node.append(c);
  return node;
}

function pretty(value) {
  const s = String(value).toLowerCase().replaceAll("_", "-");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function salaryText(s) {
  if (!s || (s.min == null && s.max == null)) return "";
  const n = (x) => Math.round(x).toLocaleString("en-US");
  const range = s.min != null && s.max != null && s.min !== s.max ? `${n(s.min)}–${n(s.max)}` : n(s.min ?? s.max);
  return `${range} ${s.currency || ""}${s.period ? " / " + s.period.toLowerCase() : ""}`.trim();
}

// distanceText is a card's distance from the place searched around, in
// miles as the "within" selector counts them ("" without one).
function distanceText(km) {
  if (km == null) return "";
  const mi = km / 1.609344;
  return el("span", { class: "distance" }, ` · ${mi < 10 ? mi.toFixed(1) : Math.round(mi)} mi away`);
}

// ago says how long before now an RFC 3339 instant was, in days.
function ago(instant) {
  const days = Math.floor((Date.now() - Date.parse(instant)) / 86400000);
  if (!(days >= 0)) return "";
  return days === 0 ? "Posted today" : `Posted ${days} ${days === 1 ? "day" : "days"} ago`;
}

// logo is the company's logo, hidden when it does not load (decorative:
// the company's name is beside it).
function logo(url) {
  if (!url) return null;
  const img = el("img", { class: "logo", src: url, alt: "", width: "40", height: "40", loading: "lazy" });
  img.addEventListener("error", () => img.remove());
  return img;
}

function renderCard(card) {
  const chips = el("ul", { class: "chips", "aria-label": "Details" });
  for (const chip of [
    card.workArrangement && pretty(card.workArrangement),
    card.employmentType && pretty(card.employmentType),
    salaryText(card.salary),
    card.category && card.category.role,
  ]) {
    if (chip) chips.append(el("li", {}, chip));
  }
  return el(
    "li",
    { class: "card", dataset: { id: card.id } },
    el(
      "article",
      {},
      logo(card.companyLogo),
      el("h2", {}, el("a", { href: `#job/${encodeURIComponent(card.id)}` }, card.title)),
      el("p", {}, `${card.company} · ${card.location.full}`, distanceText(card.distanceKm)),
      card.summary ? el("p", { class: "summary" }, card.summary) : null,
      chips,
      card.postedAt ? el("p", { class: "posted" }, el("time", { datetime: card.postedAt }, ago(card.postedAt))) : null,
    ),
  );
}

function renderFacets(facets) {
  const box = $("facets");
  box.replaceChildren();
  for (const f of FACETS) {
    const facet = facets.find((x) => x.field === f.field);
    if (!facet || facet.values.length === 0) continue;
    const list = el("ul");
    for (const { value, count } of facet.values) {
      const pressed = state.chosen[f.field] === value;
      const button = el(
        "button",
        { type: "button", "aria-pressed": String(pressed), dataset: { field: f.field, value } },
        el("span", {}, f.field === "COMPANY" || f.field === "CATEGORY_ROLE" ? value : pretty(value)),
        el("span", { class: "count" }, count.toLocaleString("en-US"), el("span", { class: "sr-only" }, count === 1 ? " job" : " jobs")),
      );
      button.addEventListener("click", () => {
        if (pressed) delete state.chosen[f.field];
        else state.chosen[f.field] = value;
        loadPage(true);
      });
      list.append(el("li", {}, button));
    }
    box.append(el("fieldset", { class: "facet" }, el("legend", {}, f.label), list));
  }
}

function setStatus(text) {
  $("status").textContent = text;
  $("status").classList.remove("error");
}

function showError(err) {
  if (err.code === "unauthorized") {
    sessionStorage.removeItem("jobsd-api-key");
    $("key-form").hidden = false;
  }
  $("status").textContent = `Error: ${err.message}`;
  $("status").classList.add("error");
}

async function showJob(id) {
  state.resultsScroll = window.scrollY;
  $("results-view").hidden = true;
  $("detail-view").hidden = false;
  const box = $("detail");
  box.replaceChildren(el("p", {}, "Loading…"));
  try {
    const { data, errors } = await gql(JOB, { id });
    const job = data && data.node;
    if (!job) {
      const gone = (errors || []).find((e) => e.extensions && e.extensions.code === "gone");
      if (gone) {
        const at = new Date(gone.extensions.closedAt);
        box.replaceChildren(
          el("h2", { id: "detail-title" }, "This job is closed"),
          el("p", { class: "closed", dataset: { closedAt: gone.extensions.closedAt } },
            `Closed on ${at.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })}.`),
          el("p", {}, `Job ${id} is no longer open; search again for similar jobs.`),
        );
      } else {
        box.replaceChildren(el("h2", { id: "detail-title" }, "Job not found"),
          el("p", {}, errors && errors.length ? errors[0].message : `No job has the id ${id}.`));
      }
    } else {
      box.replaceChildren(...renderJob(job));
    }
  } catch (err) {
    box.replaceChildren(el("h2", { id: "detail-title" }, "Could not load the job"), el("p", { class: "error" }, err.message));
  }
  // The job opens at the top of the page, its title under the search box.
  window.scrollTo(0, 0);
  box.focus({ preventScroll: true });
}

function renderJob(job) {
  const facts = el("dl");
  const add = (term, value) => {
    if (value) facts.append(el("dt", {}, term), el("dd", {}, value));
  };
  add("Company", job.company);
  add("Location", job.location.full);
  add("Work arrangement", job.workArrangement && pretty(job.workArrangement));
  add("Employment type", job.employmentType && pretty(job.employmentType));
  add("Experience", job.experienceLevel);
  add("Salary", salaryText(job.salary));
  add("Category", [job.category.field, job.category.role, job.category.specialization].filter(Boolean).join(" › "));
  add("Skills", job.skills.join(", "));
  add("Benefits", job.benefits.join(", "));
  add("Visa sponsorship", job.visaSponsorship.join(", "));
  add("Posted", job.postedAt && new Date(job.postedAt).toLocaleDateString("en-US", { timeZone: "UTC" }));
  const parts = [el("h2", { id: "detail-title" }, job.title), facts];
  if (job.summary) parts.push(el("p", {}, el("strong", {}, job.summary)));
  // The plain-text description has a line per paragraph, heading or list
  // item of the posting: each is a paragraph here.
  if (job.description) {
    const lines = job.description.split(/\n+/).filter((line) => line.trim() !== "");
    parts.push(el("div", { class: "description" }, ...lines.map((line) => el("p", {}, line))));
  }
  if (job.url) parts.push(el("p", {}, el("a", { href: job.url, rel: "noopener noreferrer" }, "Apply on the employer's site")));
  return parts;
}

function showResults() {
  $("detail-view").hidden = true;
  $("results-view").hidden = false;
  window.scrollTo(0, state.resultsScroll);
  if (!state.reading) search($("box").value);
}

function route() {
  const m = location.hash.match(/^#job\/(.+)$/);
  if (m) showJob(decodeURIComponent(m[1]));
  else showResults();
}

function start() {
  $("search").addEventListener("submit", (e) => {
    e.preventDefault();
    if (suggesting.picked) return;
    clearTimeout(suggesting.timer);
    suggesting.generation++;
    closeSuggestions();
    if (location.hash) history.pushState(null, "", location.pathname + location.search);
    showResults();
    search($("box").value);
  });
  $("box").addEventListener("input", suggestSoon);
  $("box").addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (suggesting.items.length === 0) return;
      e.preventDefault();
      moveSuggestion(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter" && suggesting.active >= 0) {
      // Picked, not submitted: some input methods submit the form on the
      // key's character even so, which the submit handler then ignores.
      e.preventDefault();
      suggesting.picked = true;
      pickSuggestion(suggesting.active);
    } else if (e.key === "Escape") {
      closeSuggestions();
    }
  });
  $("box").addEventListener("keyup", (e) => {
    if (e.key === "Enter") suggesting.picked = false;
  });
  $("box").addEventListener("blur", () => setTimeout(closeSuggestions, 100));
  $("more").addEventListener("click", loadMore);
  $("within").addEventListener("change", () => {
    if ($("box").value.trim() !== "") search($("box").value);
  });
  $("new-jobs").addEventListener("click", () => {
    window.scrollTo(0, 0);
    loadPage(true);
  });
  $("back").addEventListener("click", (e) => {
    e.preventDefault();
    if (history.length > 1 && state.reading) history.back();
    else {
      history.pushState(null, "", location.pathname + location.search);
      route();
    }
  });
  $("key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem("jobsd-api-key", $("key").value.trim());
    $("key-form").hidden = true;
    search($("box").value);
  });
  window.addEventListener("hashchange", route);
  if (!apiKey()) $("key-form").hidden = false;
  route();
}

start();
