"""The stages of a job, as stage runs and failures are recorded (no database import, so the
embedded runner's pool processes can name them cheaply)."""

from enum import StrEnum


class Stage(StrEnum):
    INGEST = "ingest"  # input file -> pages
    RECTIFY = "rectify"  # page -> boards and their cells
    OCR = "ocr"  # board -> reading
    SOLVE = "solve"  # reading -> solution and render
