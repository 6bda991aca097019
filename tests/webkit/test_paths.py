"""Every step of the formula's path and of every other lab's path in WebKit (Safari's engine; the
rest in Firefox: tests/every_step.py `paths_for`), checked against numpy: each path's first step
from its link in English, the next ones from a course page's host messages, each also after a click
on another word and in Italian."""

import pytest
from selenium.webdriver.common.by import By

from tests import every_step
from tests.e2e.conftest import host_site


class WebDriver(every_step.Browser):
    def __init__(self, driver):
        self.driver = driver

    def run(self, script):
        return self.driver.execute_script(f"return {script}")

    def run_async(self, script):
        return self.driver.execute_async_script(script)

    def open(self, url):
        self.driver.get(url)

    def enter(self):
        self.driver.switch_to.frame(self.driver.find_element(By.ID, "w"))

    def leave(self):
        self.driver.switch_to.default_content()

    def click(self, xpath):
        self.driver.find_element(By.XPATH, xpath).click()


@pytest.mark.parametrize("path_id", every_step.paths_for("webkit"))
def test_every_step_of_the_path_shows_numpys_numbers(webkit_browser, base_url, path_id):
    """Each step opens, becomes ready, and its state and the numbers on screen are numpy's, in both languages."""
    every_step.walk(WebDriver(webkit_browser), host_site(), base_url, path_id, "en")
