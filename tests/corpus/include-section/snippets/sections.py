raise SystemExit("outside the section")
# --8<-- [start:setup]
configured = True
# --8<-- [end:setup]
raise SystemExit("after the section")
