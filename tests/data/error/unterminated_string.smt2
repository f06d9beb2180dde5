(set-logic HORN)
(set-info :source "never closed)
(check-sat)
