"""The live preview for authors and the preview of the published site. Imports site and blocks."""
