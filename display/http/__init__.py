"""HTTP: what every endpoint needs (``endpoint``), the core JSON API, the pages, the OpenAPI
document, sign-in (TD and stewards in ``display.http.auth``, players here), the sign-in throttle, the
``If-Match`` preconditions and the exports."""
