"""Every step of the formula's path and of every other lab's path in Firefox (Gecko; the rest in
WebKit: tests/every_step.py `paths_for`), checked against numpy: each path's first step from its
link in Italian, the next ones from a course page's host messages, each also after a click on
another word and in English."""

import pytest

from tests import every_step
from tests.e2e.conftest import host_site


class Marionette(every_step.Browser):
    def __init__(self, client):
        self.client = client

    def run(self, script):
        return self.client.execute_script(f"return {script}", sandbox=None)

    def run_async(self, script):
        return self.client.execute_async_script(script, sandbox=None)

    def open(self, url):
        self.client.navigate(url)

    def enter(self):
        self.client.switch_to_frame(self.client.find_element("id", "w"))

    def leave(self):
        self.client.switch_to_frame()

    def click(self, xpath):
        self.client.find_element("xpath", xpath).click()


@pytest.mark.parametrize("path_id", every_step.paths_for("firefox"))
def test_every_step_of_the_path_shows_numpys_numbers(firefox, base_url, path_id):
    """Each step opens, becomes ready, and its state and the numbers on screen are numpy's, in both languages."""
    every_step.walk(Marionette(firefox), host_site(), base_url, path_id, "it")
