# SPDX-License-Identifier: Apache-2.0
"""The headless Chromium the GUI test files drive: one for the whole run
(a second one started right after the first quits was refused once)."""
import shutil

import pytest


@pytest.fixture(scope="session")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    driver_path = shutil.which("chromedriver")
    assert driver_path, "chromedriver is missing: tools/setup.sh installs chromium-driver"
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1200,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver_path),
                              options=options)
    yield driver
    driver.quit()
