// Served at /cms/cms.js: submits CMS forms (action /cms/<handle>/submit) without leaving the page, with a
// loading state. Without JavaScript the same forms post normally and the server redirects.
(() => {
  const message = (form, text, isError) => {
    let box = form.querySelector(".cms-form-message");
    if (!box) {
      box = document.createElement("p");
      box.className = "cms-form-message";
      box.setAttribute("role", "status");
      form.append(box);
    }
    box.textContent = text;
    box.toggleAttribute("data-cms-error", Boolean(isError));
  };
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (
      !(form instanceof HTMLFormElement) ||
      !/^\/(cms|forms)\/[^/]+\/submit$/.test(new URL(form.action).pathname)
    )
      return;
    event.preventDefault();
    if (form.hasAttribute("data-cms-loading")) return;
    form.setAttribute("data-cms-loading", "");
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { accept: "application/json" },
      });
      const body = await response.json().catch(() => ({}));
      if (response.ok) {
        const redirect = form.querySelector('input[name="redirect_url"]')?.value;
        if (redirect?.startsWith("/") && !redirect.startsWith("//")) return window.location.assign(redirect);
        form.reset();
        message(form, body.message || "Thank you for your submission!", false);
      } else {
        const fields = (body.details || []).map((detail) => detail.path).join(", ");
        message(form, fields ? `${body.error}: ${fields}` : body.error || "Something went wrong.", true);
      }
    } catch {
      message(form, "The form could not be sent. Please try again.", true);
    } finally {
      form.removeAttribute("data-cms-loading");
    }
  });
})();
