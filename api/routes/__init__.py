"""The API's routes, one module per resource; ``api.app.create_app`` includes each router."""
