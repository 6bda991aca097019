"""The SCORM packages of `make scorm` launched as a learning platform launches them: scorm-again (the
LMS side of the SCORM API, npm) in a host page of the same origin, the package unpacked and served
with Moodle's file types, its launch page read from its manifest, in a frame or in a popup. The
student answers guesses; the platform holds the score, the status and suspend_data, and a second
launch with what it kept resumes the score."""

import functools
import http.server
import json
import re
import shutil
import threading
import zipfile
from pathlib import Path

import pytest

from tests.e2e.conftest import READY_TIMEOUT, new_context
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

    def host(self, version, launch, kept=None, popup=False):
        """A host page creating the API (loaded with what the platform `kept`) and launching the SCO
        in a frame, or (`popup`) in a window it opens."""
        script, constructor, global_name = LMS[version]
        launcher = (f"window.sco = window.open({json.dumps(launch)}, 'sco', 'width=1000,height=900');" if popup
                    else f"document.body.insertAdjacentHTML('beforeend', '<iframe id=\"sco\" title=\"SCO\" "
                         f"width=\"1000\" height=\"900\" src=' + {json.dumps(json.dumps(launch))} + '></iframe>');")
        html = (f'<!doctype html><meta charset="utf-8"><title>platform</title><body><script src="lms/{script}"></script>'
                f"<script>window.{global_name} = new {constructor}({{logLevel: 5}});"
                f"window.lms = window.{global_name}; window.commits = 0;"
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


def launch(platform, version, kept=None):
    place, launches, context = platform
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(place.host(version, launches[version], kept))
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
    launch_address = place.unpack(tmp_path / "button12.zip", "button12", "1.2")
    assert "questions=2" in launch_address and "lock=1" in launch_address and "quiz=1" in launch_address
    with zipfile.ZipFile(tmp_path / "button12.zip") as z:
        files = json.loads(z.read("files.json"))["files"]
        assert sorted(set(z.namelist()) - {"imsmanifest.xml"}) == files
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
