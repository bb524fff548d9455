"""Launch signatures and (later) the machine-readable kernel spec."""
