"""The one schema (SQLAlchemy models), sessions, and the record/read functions both drivers use."""
