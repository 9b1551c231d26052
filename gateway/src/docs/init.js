// Starts Swagger UI on the merged document; no validator badge (it would call out to the internet).
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  persistAuthorization: true,
});
