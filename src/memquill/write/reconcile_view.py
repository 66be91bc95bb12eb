"""The I/O half of reconcile: read, once, everything ``reconcile.decide`` may look at.

Local reads, never a scan: the slot (exact scope, subject and key, every status), any
predecessors its version chain points to outside the slot, and — only when the decision
will look at them (``reconcile.needs_near``) — lexical near-duplicates of the content in
the scope with their embeddings.
"""

from __future__ import annotations

from dataclasses import replace

from memquill.model import SLOT_OPEN, MemoryRecord, MemoryType
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.text import query_terms
from memquill.write.reconcile import needs_near
from memquill.write.reconcile_model import Near, Policy, Proposal, View

NEAR_LIMIT = 5
CHAIN_LIMIT = 50  # version-chain hops read beyond the slot


def load_view(store: Store, proposal: Proposal, policy: Policy) -> View:
    """The slot first; near-duplicates only when the decision will look at them."""
    c = proposal.candidate
    if c.type is MemoryType.TEMPORARY:  # temporary notes never join a slot
        return View(near=_near(store, proposal))
    slot = tuple(
        store.find(
            RecordFilter(reader=proposal.scope, exact_scope=True, statuses=None, subject=c.subject, key=c.key)
        )
    )
    view = View(slot=slot, chain=_chain(store, slot))
    return replace(view, near=_near(store, proposal)) if needs_near(proposal, view, policy) else view


def _near(store: Store, proposal: Proposal) -> tuple[Near, ...]:
    c = proposal.candidate
    f = RecordFilter(reader=proposal.scope, exact_scope=True, statuses=SLOT_OPEN, types=frozenset({c.type}))
    hits = store.lexical(f, query_terms(c.content), NEAR_LIMIT)
    if not hits:
        return ()
    ids = [h[0] for h in hits]
    embeddings = store.embeddings(ids)
    return tuple(Near(r, embeddings.get(r.id)) for r in store.get_many(ids))


def _chain(store: Store, slot: tuple[MemoryRecord, ...]) -> dict[str, MemoryRecord]:
    """Predecessors named by ``supersedes`` that the slot does not hold (a key renamed by a
    migration, a record moved by review)."""
    known = {r.id for r in slot}
    chain: dict[str, MemoryRecord] = {}
    wanted = {r.supersedes for r in slot if r.supersedes and r.supersedes not in known}
    for _ in range(CHAIN_LIMIT):
        if not wanted:
            break
        found = store.get_many(sorted(wanted))
        chain |= {r.id: r for r in found}
        known |= wanted
        wanted = {r.supersedes for r in found if r.supersedes and r.supersedes not in known}
    return chain
