; `h` starts with any value and the loop reads it before any write: explicit states cannot
; stand for all its values, so the engine must give up (the system is unsafe: h = 7 reaches
; the query, which an engine that took "any value" as one state could miss).
(set-logic HORN)
(declare-fun s (Int Int) Bool)
(assert (forall ((h Int) (c Int)) (=> (= c 0) (s h c))))
(assert (forall ((h Int) (c Int) (c2 Int))
  (=> (and (s h c) (< c 3) (= c2 (+ c h))) (s h c2))))
(assert (forall ((h Int) (c Int)) (=> (and (s h c) (= c 7)) false)))
(check-sat)
