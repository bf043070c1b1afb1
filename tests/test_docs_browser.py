"""The offline docs site in a real browser.

Builds the site (`dormouse.tooling.site.build_site`) into a temporary folder, serves it on localhost and
walks it in headless Chromium from the home page: every page loads, every internal link answers
200, every image has pixels, nothing is fetched from outside localhost, no console errors, and
every page built is reachable from the home page, and the chapters were run: a benchmark chapter's
page shows what it read from its record in runs/. The site as a reader wants it: every page has a
title of its own, the findings page opens with its answers table before any code, each record page
is titled by its experiment with its verdicts before its (folded) code, and the build lost nothing
(no chapter stopped, no API block failed: the strict build's failures). Screenshots of the home
page, the findings and one record go to $DOCS_SCREENSHOTS (e.g. runs/docs/screenshots) when set,
else to a temporary folder; the test prints where.

If runs/ has no report yet, a small executed report with a figure is written into the temporary
tree, so the image check always has a real figure to load.
"""
from __future__ import annotations
import functools, os, re, shutil, subprocess, sys, threading, time, urllib.error, urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urldefrag

import pytest

pytestmark = pytest.mark.slow   # the whole site built and walked in Chromium: minutes on 2 cores (`make test-slow`, `make docs-check`)

ROOT = Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _which(env, paths, names):
    for p in [os.environ.get(env)] + list(paths) + [shutil.which(n) for n in names]:
        if p and Path(p).is_file() and os.access(p, os.X_OK): return p
    return None

def find_chromium():
    "(browser, driver) paths: $CHROMIUM_BIN/$CHROMEDRIVER, Debian's, or on PATH (GitHub's runners have Chrome)."
    wd = os.environ.get("CHROMEWEBDRIVER")
    return (_which("CHROMIUM_BIN", ["/usr/bin/chromium"], BROWSERS),
            _which("CHROMEDRIVER", ["/usr/bin/chromedriver"] + ([f"{wd}/chromedriver"] if wd else []), ["chromedriver"]))

def ensure_chromium():
    "Find Chromium and its driver; install Debian's packages if we can (root + apt-get); else skip, saying why."
    browser, driver = find_chromium()
    if browser and driver: return browser, driver
    why = "not root" if os.geteuid() != 0 else "no apt-get" if not shutil.which("apt-get") else ""
    if not why:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        cmd = "apt-get install -y -q chromium chromium-driver || (apt-get update -q && apt-get install -y -q chromium chromium-driver)"
        r = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, text=True, timeout=900)
        browser, driver = find_chromium()
        if browser and driver: return browser, driver
        why = f"apt-get failed: {(r.stderr or r.stdout).strip().splitlines()[-1:] or r.returncode}"
    pytest.skip(f"Chromium and chromedriver are not installed and could not be ({why}); "
                "run `WITH_CHROMIUM=1 tools/bootstrap.sh` as root, or set CHROMIUM_BIN and CHROMEDRIVER")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *a): pass

class _Server(ThreadingHTTPServer):
    daemon_threads = True
    def handle_error(self, request, client_address):  # a browser dropping a connection is not a failure
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)): super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    "The strict build: its folder, and what it lost (every page is written either way)."
    from dormouse.tooling.site import SiteError, build_site
    tmp = tmp_path_factory.mktemp("docs")
    runs = ROOT / "runs"
    assert (runs / "demo" / "report.ipynb").is_file()     # the committed demo record is the site's record page
    t = time.time()
    try: out, failures = build_site(tmp / "_docs", root=ROOT, runs=runs, quiet=True), []
    except SiteError as e: out, failures = e.out, e.failures
    print(f"\ndocs: built {len(list(out.rglob('*.html')))} pages in {time.time() - t:.1f} s into {out} (records from {runs})")
    return out, failures


@pytest.fixture(scope="module")
def site(built): return built[0]


@pytest.fixture(scope="module")
def server(site):
    httpd = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    th = threading.Thread(target=httpd.serve_forever, daemon=True); th.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown(); httpd.server_close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    browser, chromedriver = ensure_chromium()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is missing: it is in the dev extras (pip install -e '.[dev]')")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,900",
              f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(executable_path=chromedriver), options=opts)
    d.set_page_load_timeout(30)
    yield d
    d.quit()


PAGE_JS = """
const first = (sel) => document.querySelector(sel);
const before = (a, b) => !!a && (!b || !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING));
return {
  title: document.title,
  first_screen: (() => {   // what the first screen (the window at the top of the page) holds
    const h = window.innerHeight, top = (e) => e.getBoundingClientRect().top;
    const said = Array.from(document.querySelectorAll('strong')).find(e => e.textContent.startsWith('What the records say'));
    return {conclusion: !!said && top(said) < h,
            figure: Array.from(document.images).some(i => i.naturalWidth > 0 && top(i) < h)};
  })(),
  answers_first: before(first('table.dm-answers'), first('.jp-CodeCell .jp-InputArea')),
  verdicts_first: before(Array.from(document.querySelectorAll('.jp-RenderedMarkdown strong')).find(e => e.textContent === 'Verdicts'), first('.jp-CodeCell .jp-InputArea')),
  inputs: document.querySelectorAll('.jp-CodeCell .jp-InputArea').length,
  folded: document.querySelectorAll('details.dm-fold .jp-InputArea').length,
  notes: Array.from(document.querySelectorAll('.dm-note')).map(n => n.textContent),
  h1: (document.querySelector('h1') || {}).textContent || '',
  nav: document.querySelectorAll('nav.dm-nav a').length,
  current: Array.from(document.querySelectorAll('nav.dm-nav a[aria-current="page"]')).map(a => {
    const n = a.closest('nav'), r = a.getBoundingClientRect(), nr = n.getBoundingClientRect();
    return {href: a.href, shown: r.top >= nr.top && r.bottom <= nr.bottom, marked: getComputedStyle(a).fontWeight >= 600};
  }),
  ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
  stderr: Array.from(document.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')).map(e => e.textContent),
  links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  imgs: Array.from(document.images).map(i => ({src: (i.currentSrc || i.src).slice(0, 60), ok: i.complete && i.naturalWidth > 0, w: i.naturalWidth})),
  resources: performance.getEntriesByType('resource').map(r => r.name),
};"""


def _status(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r: return r.status
    except urllib.error.HTTPError as e: return e.code


@pytest.fixture(scope="module")
def crawl(site, server, driver):
    "Every page reachable from the home page, as the browser saw it; and the links that did not resolve."
    from selenium.webdriver.support.ui import WebDriverWait
    start = server + "index.html"
    todo, seen, pages, broken, errors = [(start, "(start)")], {start}, {}, [], []
    t = time.time()
    while todo:
        url, ref = todo.pop(0)
        st = _status(url)
        if st != 200: broken.append(f"{url} -> HTTP {st} (linked from {ref})"); continue
        if not url.endswith(".html"): continue
        driver.get(url)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
        info = pages[url] = driver.execute_script(PAGE_JS)
        errors += [f"{url}: {e['message']}" for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        for link in info["links"]:
            u = urldefrag(link)[0]
            if u.startswith(server) and u not in seen:
                seen.add(u); todo.append((u, url))
    print(f"docs: browsed {len(pages)} pages in {time.time() - t:.1f} s")
    return {"pages": pages, "broken": broken, "errors": errors, "start": start}


def test_index_loads(crawl):
    home = crawl["pages"].get(crawl["start"])
    assert home, "the home page did not load"
    assert home["h1"].strip() and home["nav"] >= 2, home
    assert any("/records/" in l for l in home["links"]), "the home page lists no record"


def test_every_internal_link_resolves(crawl, site, server):
    assert not crawl["broken"], "broken links:\n" + "\n".join(crawl["broken"])
    built = {server + p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    unreachable = built - set(crawl["pages"])
    assert not unreachable, f"pages not reachable from the home page: {sorted(unreachable)}"


def test_every_image_loads(crawl):
    bad = [f"{u}: {i}" for u, p in crawl["pages"].items() for i in p["imgs"] if not i["ok"]]
    assert not bad, "images that did not load:\n" + "\n".join(bad)
    record_imgs = [i for u, p in crawl["pages"].items() if "/records/" in u for i in p["imgs"]]
    assert record_imgs, "no record page has a figure"


def test_offline_and_no_console_errors(crawl, server):
    outside = sorted({r for p in crawl["pages"].values() for r in p["resources"] if not r.startswith((server, "data:"))})
    assert not outside, f"pages load resources from outside localhost: {outside}"
    assert not crawl["errors"], "browser console errors:\n" + "\n".join(crawl["errors"])


def test_chapters_show_their_records(site):
    "The build ran the chapters: the GPU checks page prints the machine named in runs/check's manifest."
    import json
    man = json.loads((ROOT / "runs/check/manifest.json").read_text())
    line = f"{man['machine']['device_name']}, torch {man['torch']}, commit {man['git_commit'][:7]}"
    page = (site / "1_model/check.html").read_text()
    assert f"<pre>{line}" in page, f"1_model/check.html lacks the executed output {line!r}"
    assert 'class="dm-note">running this chapter' not in page, "the GPU checks chapter failed to run"


def test_screenshots(crawl, driver, server, tmp_path_factory, capsys):
    out = Path(os.environ.get("DOCS_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    out.mkdir(parents=True, exist_ok=True)
    recs = sorted(u for u in crawl["pages"] if "/records/" in u)
    record = next((u for u in recs if u.endswith("/engram_rows.html")), recs[0])
    shots = []
    for name, url in [("index", crawl["start"]), ("findings", server + "4_experiments/findings.html"), ("record", record)]:
        driver.get(url)
        h = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, max(900, min(int(h), 6000)))
        path = out / f"{name}.png"
        assert driver.save_screenshot(str(path)) and path.stat().st_size > 10_000, path
        shots.append(path)
    driver.set_window_size(1280, 900)
    with capsys.disabled():
        print(f"\ndocs: screenshots {', '.join(map(str, shots))} ({record.removeprefix(server)})")


def test_build_lost_nothing(built):
    "The strict build: no chapter stopped, no API block failed, every page processed."
    assert not built[1], "the docs build failed:\n" + "\n".join(built[1])


def test_pages_have_titles_of_their_own(crawl):
    titles = {}
    for u, p in crawl["pages"].items(): titles.setdefault(p["title"].strip(), []).append(u)
    same = {t: us for t, us in titles.items() if len(us) > 1 or not t}
    assert not same, f"pages that share a title: {same}"


def _page(crawl, server, href):
    p = crawl["pages"].get(server + href)
    assert p, f"{href} was not reached from the home page"
    return p


def test_findings_answers_first(crawl, server):
    p = _page(crawl, server, "4_experiments/findings.html")
    assert p["answers_first"], "the findings page's answers table must come before its first code cell"
    assert p["inputs"] and p["folded"] == p["inputs"], f"code left unfolded on the findings page: {p['folded']} of {p['inputs']} folded"
    assert not p["notes"], p["notes"]


def test_findings_first_screen_holds_the_conclusion_and_the_figure(crawl, server):
    p = _page(crawl, server, "4_experiments/findings.html")
    assert p["first_screen"] == {"conclusion": True, "figure": True}, p["first_screen"]


def test_records_named_verdicts_first(crawl, server):
    import yaml
    recs = {u: p for u, p in crawl["pages"].items() if "/records/" in u}
    assert recs
    for u, p in recs.items():
        run = ROOT / "runs" / u.removeprefix(server + "records/").removesuffix(".html")
        if not (run / "spec.yaml").exists(): continue
        name = yaml.safe_load((run / "spec.yaml").read_text())["name"]
        assert p["h1"].startswith(f"{name} — ") and " against " in p["h1"], (u, p["h1"])
        if (run / "decision.json").exists(): assert p["verdicts_first"], f"{u}: the verdicts must come before the report's code"
        assert p["folded"] == p["inputs"], f"{u}: {p['inputs'] - p['folded']} code cell(s) not folded"


def test_links_land_where_they_point(crawl, server):
    "Source links carry a line (nbdev alone writes #LNone); every in-site #anchor names an element of its page."
    ids = {u: set(p["ids"]) for u, p in crawl["pages"].items()}
    lnone = sorted({f"{u}: {l}" for u, p in crawl["pages"].items() for l in p["links"] if l.endswith("#LNone")})
    assert not lnone, f"{len(lnone)} source links without a line, e.g. {lnone[:3]}"
    source = [l for p in crawl["pages"].values() for l in p["links"] if "/blob/" in l and ".py" in l]
    lined = [l for l in source if re.search(r"\.py#L\d+$", l)]
    assert lined and len(lined) >= 0.9 * len(source), [l for l in source if l not in lined][:3]   # a constant has no line
    dead = sorted({f"{u} -> {l}" for u, p in crawl["pages"].items() for l in p["links"]
                   if l.startswith(server) and "#" in l and urldefrag(l)[0] in ids and urldefrag(l)[1] not in ids[urldefrag(l)[0]]})
    assert not dead, f"{len(dead)} links to an anchor their page lacks:\n" + "\n".join(dead[:20])


def test_pages_hold_no_warnings(crawl):
    "A library's warning (a path on the machine that ran the chapter) is not shown on a page."
    warned = [f"{u}: {t.strip()[:200]}" for u, p in crawl["pages"].items() for t in p["stderr"]
              if re.search(r"\.py:\d+: \w*Warning:", t)]
    assert not warned, "pages that show a Python warning:\n" + "\n".join(warned)


def test_sidebar_marks_the_current_page(crawl, server):
    "Every page but the home page has one sidebar entry marked as current, itself, shown in the sidebar's view."
    for u, p in crawl["pages"].items():
        if u == crawl["start"]: continue
        assert [c["href"] for c in p["current"]] == [u], (u, p["current"])
        assert p["current"][0]["shown"] and p["current"][0]["marked"], (u, p["current"])
