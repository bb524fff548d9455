"""Generated cuTile Python forms of the Triton examples (tileport.frontends.triton.bundled)."""
