"`make lab`'s server: JupyterLab on nbs/, localhost only, token on, answers its API."
import json, os, secrets, socket, subprocess, sys, time, urllib.request, urllib.error
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]

def test_lab_answers_api_with_token():
    port, token = free_port(), secrets.token_hex(8)
    env = dict(os.environ, LAB_PORT=str(port), JUPYTER_TOKEN=token)
    p = subprocess.Popen(["make", "-s", "lab"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline, body = time.time() + 90, None
        while time.time() < deadline:
            try:
                body = json.load(urllib.request.urlopen(f"{base}/api/contents?token={token}", timeout=5)); break
            except (urllib.error.URLError, ConnectionError): time.sleep(1)
        assert body is not None, "JupyterLab did not answer within 90 s"
        names = {c["name"] for c in body["content"]}
        assert "index.ipynb" in names and "0_foundations" in names          # the chapters sit in their groups
        group = json.load(urllib.request.urlopen(f"{base}/api/contents/0_foundations?token={token}", timeout=5))
        assert "00_config.ipynb" in {c["name"] for c in group["content"]}
        with pytest.raises(urllib.error.HTTPError) as e:  # the token is on
            urllib.request.urlopen(f"{base}/api/contents", timeout=5)
        assert e.value.code in (401, 403)
    finally:
        os.killpg(p.pid, 15); p.wait(timeout=30)
