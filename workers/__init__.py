"""The Celery driver: one app, one queue and one thin task module per stage."""
