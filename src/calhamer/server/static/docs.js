// Starts the API browser on /docs (Swagger UI, served from this server): a file of its own,
// since the pages' Content-Security-Policy runs no inline script.
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapi,
    dom_id: "#swagger-ui",
    deepLinking: true,
    layout: "BaseLayout",
    presets: [SwaggerUIBundle.presets.apis],
  });
});
