"""Who sent a record: a keyed digest of the sender's network address, never the address.

A solve record is unauthenticated: anyone may invent solver ids, so what bounds one sender
is its address. IPv4 counts by the whole address, IPv6 by its /64 (one household or phone
is given a /64, and can pick any address in it); an IPv4 address mapped into IPv6 counts as
itself. The digest is an HMAC-SHA-256 of that network under a secret kept in the catalogue
(the ``secrets`` table, made on first use), cut to 24 hex digits: every collector of one
catalogue gives one address one digest, and nobody reading the table can tell an address
from it by trying the four billion IPv4 addresses, as they could from a plain hash.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets as random_secrets

import sqlalchemy as sa

from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue

SECRET_NAME = "solve-sender-key"
DIGITS = 24
IPV6_PREFIX = 64


def network_of(host: str) -> str:
    """The network one sender stands for: an IPv4 address, an IPv6 /64; any other text
    (a Unix socket's peer, a test client's name) as it is."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host[:200]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def catalogue_secret(catalogue: Catalogue) -> bytes:
    """The catalogue's key for sender digests (made, once, by whoever asks first)."""
    table = schema.secrets
    with catalogue.writing() as connection:
        found = connection.execute(sa.select(table.c.value)
                                   .where(table.c.name == SECRET_NAME)).scalar()
        if found is None:
            from nonopress.solves.store import insert_of

            connection.execute(insert_of(catalogue.dialect, table).values(
                name=SECRET_NAME, value=random_secrets.token_hex(32))
                .on_conflict_do_nothing(index_elements=["name"]))
            found = connection.execute(sa.select(table.c.value)
                                       .where(table.c.name == SECRET_NAME)).scalar_one()
    return bytes.fromhex(found)


class SenderDigest:
    """``digest(host)``: the sender column of a record sent from ``host``."""

    def __init__(self, secret: bytes):
        self._secret = secret

    def __call__(self, host: str) -> str:
        network = network_of(host).encode("utf-8", "replace")
        return hmac.new(self._secret, network, hashlib.sha256).hexdigest()[:DIGITS]
