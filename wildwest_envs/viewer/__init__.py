"""The replay viewer: a game record as one self-contained HTML page (``write_viewer``; ``wildwest-view``)."""

from .html import view_payload, viewer_html, write_viewer

__all__ = ["view_payload", "viewer_html", "write_viewer"]
