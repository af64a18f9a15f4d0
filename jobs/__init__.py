"""The steps of a job, run the same way by both drivers (the Celery workers and the embedded
runner): each calls the pure pipeline, stores the images it makes, and returns what to record."""
