"""A phone that talks to the front as a browser would, through curl: HTTPS
trusting Caddy's local authority, HTTP/2, its own cookies and its own address
(any of 127.0.0.0/8, so that phones are told apart)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Answer:
    status: int
    version: str  # "2", "1.1", "3"
    headers: dict[str, str]  # names in lower case; the last of each
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


class Phone:
    def __init__(self, front, address: str = "127.0.0.1"):
        self.front = front
        self.address = address
        self.folder = Path(tempfile.mkdtemp(prefix="phone-"))
        self.jar = self.folder / "cookies"

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        *,
        protocol: str = "--http2",
        timeout: float = 30,
    ) -> Answer:
        port = self.front.https_port
        head, body = self.folder / "head", self.folder / "body"
        command = ["curl", "-sS", protocol, "--cacert", str(self.front.authority)]
        command += ["--resolve", f"localhost:{port}:127.0.0.1", "--interface", self.address]
        command += ["-b", str(self.jar), "-c", str(self.jar), "-D", str(head), "-o", str(body)]
        command += ["-w", "%{http_version} %{http_code}", "-X", method, "--max-time", str(timeout)]
        for name, value in (headers or {}).items():
            command += ["-H", f"{name}: {value}"]
        if method == "POST":
            command += ["-H", f"Origin: {self.front.url}"]
            for name, value in (data or {}).items():
                command += ["--data-urlencode", f"{name}={value}"]
            if not data:
                command += ["-d", ""]
        command.append(self.front.url + path)
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout + 10)
        if done.returncode != 0:
            raise ConnectionError(done.stderr.strip())
        version, status = done.stdout.split()
        found: dict[str, str] = {}
        for line in head.read_text(errors="replace").splitlines():
            if ":" in line and not line.startswith("HTTP/"):
                name, value = line.split(":", 1)
                found[name.strip().lower()] = value.strip()
        return Answer(int(status), version, found, body.read_bytes())

    def send_bytes(
        self, path: str, size: int, *, protocol: str = "--http2"
    ) -> tuple[int, int, str]:
        """POST ``size`` bytes as a file's body: the answer's status, how many bytes
        went before the answer stopped the upload, and what the answer said."""
        body, answer = self.folder / "upload", self.folder / "answer"
        with body.open("wb") as out:
            out.truncate(size)
        command = ["curl", "-sS", protocol, "--cacert", str(self.front.authority)]
        command += ["--resolve", f"localhost:{self.front.https_port}:127.0.0.1"]
        command += ["-o", str(answer), "-w", "%{http_code} %{size_upload}", "--max-time", "60"]
        command += ["-H", "Content-Type: application/octet-stream", "--data-binary", f"@{body}"]
        command.append(self.front.url + path)
        for _ in range(3):
            done = subprocess.run(command, capture_output=True, text=True, timeout=70)
            # 18: the answer cut short. The front answers 413 while the body is still
            # coming and closes the stream; on a busy machine the end of its answer can
            # be lost with it (once in a whole run). A person sees the same status.
            if done.returncode != 18:
                break
        body.unlink()
        status, sent = done.stdout.split()
        said = answer.read_text(errors="replace") if answer.exists() else done.stderr
        return int(status), int(sent), said

    def get(self, path: str, **kwargs) -> Answer:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict[str, str] | None = None, **kwargs) -> Answer:
        return self.request(
            "POST", path, {"csrfmiddlewaretoken": self.csrf(), **(data or {})}, **kwargs
        )

    def csrf(self) -> str:
        if not self.jar.exists() or "csrftoken" not in self.jar.read_text():
            self.get("/accounts/login/")
        return re.search(r"csrftoken\s+(\S+)", self.jar.read_text()).group(1)
