"""The SCORM packages of `make scorm` launched as a learning platform launches them: scorm-again (the
LMS side of the SCORM API, npm) in a host page of the same origin, the package unpacked and served
with Moodle's file types, its launch page read from its manifest, in a frame or in a popup. The
student answers guesses; the platform holds the score, the status and suspend_data, and a second
launch with what it kept resumes the score. A platform offering both interfaces gets the package's
own; a page put in the back-forward cache keeps its session; the package's page opened on its own
says the trained model is not in it."""

import functools
import http.server
import json
import re
import shutil
import threading
import zipfile
from pathlib import Path

import pytest

from tests.e2e.conftest import READY_TIMEOUT, more_settings, new_context, wait_state
from tests.reference import W_Q, attention_row, lexicon_cards
from tests.scorm_check import check_package
from tools import scorm

ROOT = Path(__file__).resolve().parents[3]
SENTENCE = "Il gatto seduto sul tappeto dormiva"
EXERCISE = f"s={SENTENCE}&questions=3"
LMS = {"1.2": ("scorm12.min.js", "Scorm12API", "API"), "2004": ("scorm2004.min.js", "Scorm2004API", "API_1484_11")}

# Moodle's file types (lib/classes/filetypes.php): what it serves a package's files as; any other
# extension (.wasm, .zip, .gz, .toml, .py, …) is document/unknown.
MOODLE_TYPES = {".html": "text/html", ".htm": "text/html", ".js": "application/x-javascript", ".css": "text/css",
                ".json": "application/json", ".txt": "text/plain", ".xml": "application/xml", ".csv": "text/csv",
                ".md": "text/markdown"}


class MoodleTypes(http.server.SimpleHTTPRequestHandler):
    """Files as Moodle sends a SCORM package's: its types, unknown extensions document/unknown, nosniff."""

    def guess_type(self, path):
        return MOODLE_TYPES.get(Path(str(path)).suffix.lower(), "document/unknown")

    def end_headers(self):
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, *args):
        pass


class Platform:
    """A loopback 'platform': packages unpacked under /<name>/, scorm-again under /lms/, host pages."""

    def __init__(self, root):
        self.root = root
        (root / "lms").mkdir(parents=True)
        for name, _, _ in LMS.values():
            shutil.copy(ROOT / "node_modules" / "scorm-again" / "dist" / name, root / "lms" / name)
        handler = functools.partial(MoodleTypes, directory=str(root))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def unpack(self, package, name, version):
        """Unpack a package under /name/; its launch address (from its manifest) relative to the root."""
        launch, _, _ = check_package(package, version)
        with zipfile.ZipFile(package) as z:
            z.extractall(self.root / name)
        return f"{name}/{launch}"

    def host(self, version, launch, kept=None, popup=False, both=False):
        """A host page creating the API of `version` (loaded with what the platform `kept`; `both`:
        the other version's too, as `window.other`) and launching the SCO in a frame, or (`popup`)
        in a window it opens."""
        script, constructor, global_name = LMS[version]
        other = LMS["2004" if version == "1.2" else "1.2"]
        launcher = (f"window.sco = window.open({json.dumps(launch)}, 'sco', 'width=1000,height=900');" if popup
                    else f"document.body.insertAdjacentHTML('beforeend', '<iframe id=\"sco\" title=\"SCO\" "
                         f"width=\"1000\" height=\"900\" src=' + {json.dumps(json.dumps(launch))} + '></iframe>');")
        html = (f'<!doctype html><meta charset="utf-8"><title>platform</title><body><script src="lms/{script}"></script>'
                + (f'<script src="lms/{other[0]}"></script>' if both else "")
                + f"<script>window.{global_name} = new {constructor}({{logLevel: 5}});"
                + (f"window.{other[2]} = new {other[1]}({{logLevel: 5}}); window.other = window.{other[2]};" if both else "")
                + f"window.lms = window.{global_name}; window.commits = 0;"
                f"window.lms.on({json.dumps('LMSCommit' if version == '1.2' else 'Commit')}, () => window.commits++);"
                + (f"window.lms.loadFromJSON({json.dumps(kept)});" if kept else "")
                + ("</script><button id=\"go\" onclick=\"" + launcher.replace('"', "&quot;") + "\">go</button>" if popup
                   else launcher + "</script>"))
        name = f"host-{version}-{'popup' if popup else 'frame'}-{len(list(self.root.glob('host-*')))}.html"
        (self.root / name).write_text(html, encoding="utf-8")
        return self.url + name


def right_answer(word):
    """The word «word» looks at most, by numpy (tests/reference.py), not by the page."""
    cards = lexicon_cards("it")
    weights = attention_row([cards[w.lower()] for w in SENTENCE.split()], W_Q, word)[2]
    return int(weights.argmax())


def answer(frame, word, right):
    """Pick `word` and guess (the right answer, or the first candidate that is not it)."""
    frame.locator(f'input[name="word"][value="{word}"]').check()
    frame.wait_for_selector("#guess-form", timeout=20_000)
    if right:
        choice = right_answer(word)
    else:
        values = frame.locator('input[name="guess"]').evaluate_all("els => els.map(e => +e.value)")
        choice = next(v for v in values if v != right_answer(word))
    frame.locator(f'input[name="guess"][value="{choice}"]').check()
    tried = json.loads(frame.locator("#attention-state").text_content())["quiz"]["tried"]
    frame.locator("#guess-submit").click()
    frame.wait_for_function(f"JSON.parse(document.getElementById('attention-state').textContent).quiz.tried > {tried}",
                            timeout=20_000)


def wait_ready(frame):
    frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT)


def cmi(page, version):
    """What the platform holds (scorm-again's cmi), as plain data."""
    return page.evaluate("JSON.parse(JSON.stringify(window.lms.cmi))")


@pytest.fixture(scope="module")
def platform(tmp_path_factory, browser):
    """Both packages of an exercise of 3 questions, unpacked on the platform; one browser context
    (its HTTP cache shared by the launches)."""
    root = tmp_path_factory.mktemp("platform")
    packages = dict(zip(scorm.VERSIONS, scorm.make_packages(tmp_path_factory.mktemp("dist"), EXERCISE)))
    place = Platform(root)
    launches = {version: place.unpack(packages[version], f"sco{version.replace('.', '')}", version)
                for version in scorm.VERSIONS}
    context = new_context(browser, place.url)
    yield place, launches, context
    assert context.outside.urls == []
    context.close()


def launch(platform, version, kept=None, both=False):
    place, launches, context = platform
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(place.host(version, launches[version], kept, both=both))
    page.wait_for_function("document.getElementById('sco').contentDocument && "
                           "document.getElementById('sco').contentDocument.documentElement.dataset.state === 'ready'",
                           timeout=READY_TIMEOUT)
    return page, page.frame(url=lambda url: "index.html" in url)


def finish(page):
    """The student leaves: the frame goes (pagehide); what the platform kept, for the next launch."""
    page.evaluate("document.getElementById('sco').remove()")
    page.wait_for_function("window.lms.isTerminated()", timeout=10_000)
    return cmi(page, None)


@pytest.mark.parametrize("version", scorm.VERSIONS)
def test_the_platform_holds_the_score_and_a_second_launch_resumes_it(platform, version):
    """Launched in a frame: two guesses (one right) make score 50 and status incomplete, committed;
    leaving finishes the session with its time. Launched again with what the platform kept, the page
    shows 1 of 2 and the answered word's answer; a third guess (right) completes the exercise at 67."""
    page, frame = launch(platform, version)
    frame.wait_for_selector("#guess-form")
    answer(frame, 5, right=True)
    answer(frame, 2, right=False)
    held = cmi(page, version)
    if version == "1.2":
        assert held["core"]["score"]["raw"] == "50" and held["core"]["lesson_status"] == "incomplete"
        assert (held["core"]["score"]["min"], held["core"]["score"]["max"]) == ("0", "100")
    else:
        assert held["score"]["raw"] == "50" and held["score"]["scaled"] == "0.5"
        assert held["completion_status"] == "incomplete"
    assert page.evaluate("window.lms.isInitialized()")
    assert page.evaluate("window.commits") == 3  # (one at the start, one after each answer)
    kept = finish(page)
    suspend = json.loads(kept["suspend_data"])
    assert len(kept["suspend_data"]) <= 4096 and (suspend["r"], suspend["t"]) == (1, 2)
    assert sorted(a[0] for a in suspend["a"]) == [2, 5] and "lock=1" in suspend["q"]
    time = kept["core"]["session_time"] if version == "1.2" else kept["session_time"]
    assert re.fullmatch(r"\d{2,4}:\d{2}:\d{2}" if version == "1.2" else r"PT\d+H\d+M\d+S", time), time
    assert (kept["core"]["exit"] if version == "1.2" else kept["exit"]) == "suspend"
    page.close()

    kept_by_platform = {"suspend_data": kept["suspend_data"]}
    page, frame = launch(platform, version, kept_by_platform)
    state = json.loads(frame.locator("#attention-state").text_content())
    assert (state["quiz"]["right"], state["quiz"]["tried"]) == (1, 2)
    assert "1 su 2" in frame.locator(".quiz-score").text_content()
    frame.locator('input[name="word"][value="5"]').check()
    frame.wait_for_selector("#next-word")  # «dormiva» answered: its feedback, no question
    answer(frame, 4, right=True)
    held = cmi(page, version)
    if version == "1.2":
        assert held["core"]["score"]["raw"] == "67" and held["core"]["lesson_status"] == "completed"
    else:
        assert held["score"]["raw"] == "67" and held["completion_status"] == "completed"
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("version", scorm.VERSIONS)
def test_a_popup_launch_finds_the_api_through_its_opener(platform, version):
    """Launched in a window of its own (the platform's "new window"): the page finds the API
    (1.2's `API`, 2004's `API_1484_11`) through window.opener, and the platform holds the score."""
    place, launches, context = platform
    page = context.new_page()
    page.goto(place.host(version, launches[version], popup=True))
    with page.expect_popup() as opened:
        page.click("#go")
    popup = opened.value
    wait_ready(popup)
    answer(popup, 5, right=True)
    held = cmi(page, version)
    if version == "1.2":
        assert held["core"]["score"]["raw"] == "100" and held["core"]["lesson_status"] == "incomplete"
    else:
        assert held["score"]["raw"] == "100" and held["completion_status"] == "incomplete"
    popup.close()
    page.wait_for_function("window.lms.isTerminated()", timeout=10_000)
    page.close()


def raw_score(held, version):
    return held["core"]["score"]["raw"] if version == "1.2" else held["score"]["raw"]


@pytest.mark.parametrize("version", scorm.VERSIONS)
def test_a_platform_offering_both_interfaces_gets_the_packages_own(platform, version):
    """A platform that offers 1.2's `API` and 2004's `API_1484_11` at once (Saba does): the 1.2
    package reports to `API` and the 2004 package to `API_1484_11` (its launch says scorm=1.2 or
    scorm=2004); the other interface is never initialized."""
    page, frame = launch(platform, version, both=True)
    answer(frame, 5, right=True)
    assert raw_score(cmi(page, version), version) == "100"
    assert page.evaluate("window.lms.isInitialized()")
    assert not page.evaluate("window.other.isInitialized()"), "the other version's interface was taken"
    assert page.errors == []
    page.close()


def test_a_pagehide_into_the_back_forward_cache_does_not_end_the_session(platform):
    """A pagehide with `persisted` set (the page put aside whole, in the back-forward cache) commits
    what the page has but keeps the session open: an answer after the page comes back reaches the
    platform; the frame's removal then finishes the session."""
    page, frame = launch(platform, "1.2")
    answer(frame, 5, right=True)
    commits = page.evaluate("window.commits")
    frame.evaluate("dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))")
    assert page.evaluate("window.commits") == commits + 1
    assert not page.evaluate("window.lms.isTerminated()"), "a page in the back-forward cache ended its session"
    frame.evaluate("dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    answer(frame, 4, right=False)
    held = cmi(page, "1.2")
    assert held["core"]["score"]["raw"] == "50" and json.loads(held["suspend_data"])["t"] == 2
    kept = finish(page)
    assert json.loads(kept["suspend_data"])["t"] == 2
    page.close()


SCO_DOCUMENT = "document.getElementById('sco').contentDocument"


def answer_from_the_host(page, word, choice):
    """`answer`, driven from the host page through the frame's document (Playwright loses a frame
    restored from the back-forward cache)."""
    tried = page.evaluate(f"JSON.parse({SCO_DOCUMENT}.getElementById('attention-state').textContent).quiz.tried")
    page.evaluate(f"{SCO_DOCUMENT}.querySelector('input[name=\"word\"][value=\"{word}\"]').click()")
    page.wait_for_function(f"!!{SCO_DOCUMENT}.getElementById('guess-form')", timeout=20_000)
    page.evaluate(f"{SCO_DOCUMENT}.querySelector('input[name=\"guess\"][value=\"{choice}\"]').click()")
    page.evaluate(f"{SCO_DOCUMENT}.getElementById('guess-submit').click()")
    page.wait_for_function(
        f"JSON.parse({SCO_DOCUMENT}.getElementById('attention-state').textContent).quiz.tried > {tried}", timeout=20_000)


def test_a_real_back_and_forward_keeps_the_session(platform):
    """In a Chromium with its back-forward cache on (Playwright's own launch turns it off): the
    student answers, the course page goes to another page and comes back from the cache (the
    frame's pageshow says persisted); the session is still open and the next answer reaches the
    platform. It leaves once the package's first visit has made its Python snapshot: while one is
    made (from the student's first pause, some seconds), a Web Lock is held and files are fetched,
    and Chromium keeps no such page in its cache (Back loads it again; the reasons seen:
    outstanding-network-request, navigation-canceled)."""
    from tests.e2e.conftest import GUARD, SHARED
    from tools.chromium import launch_options
    place, launches, _ = platform
    (place.root / "elsewhere.html").write_text("<!doctype html><title>elsewhere</title><p>another course page",
                                               encoding="utf-8")
    cached = SHARED["playwright"].chromium.launch(**launch_options(), ignore_default_args=["--disable-back-forward-cache"])
    try:
        context = GUARD.attach(cached.new_context(), place.url)
        page = context.new_page()
        page.goto(place.host("1.2", launches["1.2"]))
        page.wait_for_function(f"{SCO_DOCUMENT} && {SCO_DOCUMENT}.documentElement.dataset.state === 'ready'",
                               timeout=READY_TIMEOUT)
        page.evaluate("window.stayed = true; window.shown = [];"
                      "document.getElementById('sco').contentWindow.addEventListener('pageshow', e => shown.push(e.persisted))")
        answer_from_the_host(page, 5, right_answer(5))
        page.wait_for_function(f"!!{SCO_DOCUMENT}.documentElement.dataset.snapshot", timeout=READY_TIMEOUT,
                               polling=250)  # (made and tried: the snapshot's workers are done)
        page.goto(place.url + "elsewhere.html")
        page.go_back(wait_until="commit")  # (a page from the cache fires no load)
        page.wait_for_function("(window.stayed === true && window.shown.length === 1) || "
                               "(window.stayed === undefined && document.readyState === 'complete')", timeout=60_000)
        reasons = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0].notRestoredReasons)")
        assert page.evaluate("window.shown") == [True], f"the course page was not restored from the cache: {reasons}"
        assert not page.evaluate("window.lms.isTerminated()")
        wrong = next(v for v in range(6) if v != right_answer(4))
        answer_from_the_host(page, 4, wrong)
        held = cmi(page, "1.2")
        assert held["core"]["score"]["raw"] == "50" and held["core"]["lesson_status"] == "incomplete"
        GUARD.check(cached)
        assert context.outside.urls == []
    finally:
        cached.close()


def test_the_package_opened_unlocked_says_the_model_is_not_in_it(platform):
    """The package's page opened on its own, unlocked: "A trained model" leads to a message, in
    Italian then in English, that the trained model is not in this package (not the failed-download
    one); the mode's choice says so from then on, and back in sentence mode the about text no
    longer offers the model."""
    place, _, context = platform
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(place.url + "sco12/index.html?" + f"s={SENTENCE}".replace(" ", "+"))
    wait_ready(page)
    page.click("#model-start")
    wait_state(page, "s.mode === 'model'")
    said = page.locator(".note.error[role=alert]")
    assert said.text_content().startswith("Il modello addestrato non è in questo pacchetto")
    assert "connessione" not in said.text_content()
    assert "(non in questo pacchetto)" in page.locator("fieldset.modes").text_content()
    page.locator('input[name="lang"][value="en"]').check()
    wait_state(page, "s.lang === 'en'")
    assert said.text_content().startswith("The trained model is not in this package")
    assert "(not in this package)" in page.locator("fieldset.modes").text_content()
    more_settings(page)
    page.locator('input[name="mode"][value="sentence"]').check()
    wait_state(page, "s.mode === 'sentence'")
    assert page.locator("#model-start").count() == 0
    assert errors == []
    page.close()


def test_with_no_api_the_page_is_todays(platform):
    """The same launch with no platform around (no API anywhere): no error, no message, a guess
    answered as on any exercise link."""
    place, launches, context = platform
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    (place.root / "no-api.html").write_text(
        '<!doctype html><title>a course page</title><iframe id="sco" title="SCO" width="1000" height="900" src="'
        + launches["1.2"].replace("&", "&amp;") + '"></iframe>', encoding="utf-8")
    page.goto(place.url + "no-api.html")
    page.wait_for_function("document.getElementById('sco').contentDocument.documentElement.dataset.state === 'ready'",
                           timeout=READY_TIMEOUT)
    sco = page.frame(url=lambda url: "index.html" in url)
    assert sco.evaluate("window.attentionExplorer.scorm === undefined")  # (looked, found none)
    assert sco.evaluate("!!document.querySelector('script[src$=\"scorm.js\"]')")
    answer(sco, 5, right=True)
    assert errors == [] and sco.locator("#messages").text_content().strip() == ""
    page.close()


@pytest.fixture(scope="module")
def teacher(platform):
    """The teacher's page: the package's files opened on their own (no lock), an exercise of two
    questions set up by its link."""
    place, launches, context = platform
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(place.url + "sco12/index.html?" + f"s={SENTENCE}&questions=2&focus=1".replace(" ", "+"))
    wait_ready(page)
    yield page
    page.close()


def download(page, kind, target):
    """Choose `kind` and press the package button; the zip saved at `target`, and what the status says."""
    page.select_option("#package-kind", kind)
    with page.expect_download(timeout=60_000) as made:
        page.click("#package-scorm")
    made.value.save_as(target)
    page.wait_for_function("document.getElementById('package-progress').hidden", timeout=60_000)
    return page.locator("#share-status").text_content()


def test_the_pages_button_builds_a_package_a_platform_grades(platform, teacher, tmp_path):
    """The button, SCORM 1.2: a <progress> follows the files; the zip (read by Python's zipfile, CRC
    checked) is a package of the exercise on screen; launched under scorm-again its two questions
    are answered, and the platform holds 100 and completed."""
    place, launches, context = platform
    assert teacher.locator("#package-progress").get_attribute("aria-label") == "Preparazione del pacchetto"
    said = download(teacher, "1.2", tmp_path / "button12.zip")
    assert "attention-explorer-scorm12.zip" in said and "Pacchetto scaricato" in said
    assert (tmp_path / "button12.zip").stat().st_size <= 6_000_000
    launch_address = place.unpack(tmp_path / "button12.zip", "button12", "1.2")
    assert "questions=2" in launch_address and "lock=1" in launch_address and "quiz=1" in launch_address
    assert launch_address.endswith("&scorm=1.2")
    with zipfile.ZipFile(tmp_path / "button12.zip") as z:
        files = json.loads(z.read("files.json"))["files"]
        assert sorted(set(z.namelist()) - {"imsmanifest.xml"}) == files
        assert not any(name.startswith("model/") or name.endswith(".wasm.gz") for name in files)
        assert z.read("static/scorm.js") == (place.root / "sco12" / "static" / "scorm.js").read_bytes()
    page = context.new_page()
    page.goto(place.host("1.2", launch_address))
    page.wait_for_function("document.getElementById('sco').contentDocument && "
                           "document.getElementById('sco').contentDocument.documentElement.dataset.state === 'ready'",
                           timeout=READY_TIMEOUT)
    frame = page.frame(url=lambda url: "button12/index.html" in url)
    answer(frame, 5, right=True)
    held = cmi(page, "1.2")
    assert held["core"]["score"]["raw"] == "100" and held["core"]["lesson_status"] == "incomplete"
    answer(frame, 4, right=True)
    held = cmi(page, "1.2")
    assert held["core"]["score"]["raw"] == "100" and held["core"]["lesson_status"] == "completed"
    page.close()
    assert teacher.errors == []


def test_the_same_button_downloads_the_plain_folder(teacher, tmp_path):
    """"The page's folder" gives the bundle as `make bundle` zips it: every file of its list under
    attention-explorer/, no manifest."""
    said = download(teacher, "bundle", tmp_path / "bundle.zip")
    assert "attention-explorer.zip" in said
    with zipfile.ZipFile(tmp_path / "bundle.zip") as z:
        assert z.testzip() is None
        files = json.loads(z.read("attention-explorer/files.json"))["files"]
        assert sorted(z.namelist()) == ["attention-explorer/" + name for name in files]


def test_axe_finds_nothing_in_a_graded_exercise_or_the_package_controls(platform, teacher):
    """axe-core (WCAG 2.0/2.1 A and AA) on a locked exercise before and after a guess, and on the
    teacher's page with the package choice and its progress bar shown, in English too."""
    from tests.e2e.conftest import axe_violations
    place, launches, context = platform
    page = context.new_page()
    page.goto(place.url + launches["1.2"] + "&focus=5")
    wait_ready(page)
    assert page.evaluate("!document.querySelector('script[src$=\"scorm.js\"]')")  # (not framed: not loaded)
    assert axe_violations(page) == [], "locked, before the guess"
    answer(page, 5, right=False)
    assert axe_violations(page) == [], "locked, after the guess"
    page.close()
    teacher.evaluate("document.getElementById('package-progress').hidden = false")
    assert axe_violations(teacher) == [], "package controls"
    teacher.locator('input[name="lang"][value="en"]').check()
    teacher.wait_for_function("document.documentElement.lang === 'en'")
    assert teacher.locator("#package-scorm").text_content() == "Download SCORM package"
    teacher.evaluate("document.getElementById('package-progress').hidden = false")
    assert axe_violations(teacher) == [], "package controls, English"
    teacher.evaluate("document.getElementById('package-progress').hidden = true")
