"""shop: your models and the application; the API package inside is generated."""
