"""Real SMTP servers for the tests of e-mail: aiosmtpd in a process of its own, keeping what it
receives in a Maildir (the invitation's and the reminder's tests point Django's SMTP backend at
it). ``smtp_server`` speaks plain SMTP; ``smtp_tls_server`` requires STARTTLS before any mail,
with a certificate for ``localhost`` signed by a private CA made for the test."""

from __future__ import annotations

import datetime as dt
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _running(port: int, maildir: Path, *options: str) -> Iterator[None]:
    command = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}", *options]
    process = subprocess.Popen(
        [*command, "-c", "aiosmtpd.handlers.Mailbox", str(maildir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"aiosmtpd did not start: {process.stderr.read()!r}") from None
            time.sleep(0.1)
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def smtp_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """(port, maildir) of a running aiosmtpd, stopped after the test."""
    port = _free_port()
    maildir = tmp_path / "maildir"
    yield from ((port, maildir) for _ in _running(port, maildir))


@dataclass(frozen=True)
class TLSServer:
    port: int
    maildir: Path
    ca_file: Path  # the private CA's certificate (PEM), the only one that trusts the server's


def _name(common_name: str) -> object:
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A private CA and a server certificate for ``localhost`` (not for 127.0.0.1) it signed:
    (the CA's certificate, the server's certificate, the server's key), PEM files in
    ``folder``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID

    now = dt.datetime.now(dt.UTC)
    ca_key, server_key = (
        ec.generate_private_key(ec.SECP256R1()),
        ec.generate_private_key(ec.SECP256R1()),
    )
    ca_name = _name("Beano test mail CA")
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    server = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost")]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(server_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        server_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths


@pytest.fixture
def smtp_tls_server(tmp_path: Path) -> Iterator[TLSServer]:
    """A running aiosmtpd that offers STARTTLS and refuses mail before it (aiosmtpd's
    ``require_starttls``, on by default with ``--tlscert``), stopped after the test."""
    ca_file, cert, key = make_certificates(tmp_path)
    port = _free_port()
    maildir = tmp_path / "tls-maildir"
    for _ in _running(port, maildir, "--tlscert", str(cert), "--tlskey", str(key)):
        yield TLSServer(port, maildir, ca_file)
