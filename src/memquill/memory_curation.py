"""What people do with memory on ``Memory``: explain a record, review and resolve
conflicts, give feedback, pin core blocks. A mixin, so the facade stays a short
composition root."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memquill import audit
from memquill import params as check
from memquill.clock import Clock
from memquill.errors import ValidationError
from memquill.maintain import lifecycle
from memquill.model import MemoryRecord, Scope
from memquill.model.block import MAX_CHAR_LIMIT, CoreBlock
from memquill.store.base import Store


class Curation:
    store: Store
    clock: Clock

    if TYPE_CHECKING:  # provided by Memory and WorkingMemory (a stub here would shadow them)

        def get(self, memory_id: str) -> MemoryRecord: ...

        def _mark(self, kind: str, rec: MemoryRecord, **args: Any) -> None: ...

    # --- audit, review, feedback -----------------------------------------------------------
    def explain(self, memory_id: str) -> audit.Explanation:
        """events → versions → why it is remembered."""
        return audit.explain(self.store, memory_id)

    def review(self, include_candidates: bool = False, **scope: Any) -> list[audit.ReviewItem]:
        """Open conflicts (``needs_review``) visible to this reader; optionally candidates too."""
        check.flag(include_candidates, "include_candidates")
        return audit.review_queue(self.store, Scope.of(**scope), include_candidates)

    def resolve(
        self,
        memory_id: str,
        action: audit.Action = "accept",
        reason: str = "",
        actor: str = "user",
    ) -> MemoryRecord:
        """Apply a human decision to a flagged or candidate record."""
        check.text(memory_id, "memory_id")
        check.text(action, "action", 16)
        check.text(reason, "reason", 2000, empty=True)
        check.text(actor, "actor")
        item = audit.load_review(self.store, memory_id)
        self.store.apply(audit.decide_review(item, action, actor, reason, self.clock.now()))
        rec = self.get(memory_id)
        self._mark("resolve", rec, actor=actor, action=action)
        return rec

    def feedback(self, memory_id: str, useful: bool = True, actor: str = "user") -> MemoryRecord:
        check.flag(useful, "useful")
        check.text(actor, "actor")
        rec = self.get(memory_id)
        self.store.apply([lifecycle.feedback(rec, useful, actor, self.clock.now())])
        self._mark("feedback", rec, actor=actor, useful=useful)
        return self.get(memory_id)

    # --- core memory blocks ----------------------------------------------------------------
    def set_block(
        self,
        name: str,
        content: str,
        *,
        read_only: bool = False,
        char_limit: int = 2000,
        force: bool = False,
        **scope: Any,
    ) -> CoreBlock:
        """Pin a block (persona, user profile, rules). A read-only block changes only with force."""
        sc = Scope.of(**scope)
        check.text(name, "name")
        check.text(content, "content", check.MAX_BUDGET, empty=True)
        check.count(char_limit, "char_limit", high=MAX_CHAR_LIMIT)
        check.flag(read_only, "read_only")
        check.flag(force, "force")
        if len(content) > char_limit:
            raise ValidationError(f"block {name!r} is {len(content)} chars; its limit is {char_limit}")
        block = CoreBlock(
            tenant=sc.tenant,
            user=sc.user,
            agent=sc.agent,
            name=name,
            content=content,
            char_limit=char_limit,
            read_only=read_only,
            updated_at=self.clock.now(),
        )
        self.store.put_block(block, force=force)
        return block

    def blocks(self, **scope: Any) -> list[CoreBlock]:
        return self.store.blocks(Scope.of(**scope))
