/* "Share": the result's picture handed to the phone's share sheet, where the
 * browser can share files; elsewhere the same picture downloaded. Pages
 * without this script keep the plain download link. */
"use strict";

(function () {
  document.querySelectorAll("[data-share-picture]").forEach((button) => (button.hidden = false));
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-share-picture]");
    if (!button) return;
    fetch(button.dataset.sharePicture, { credentials: "same-origin" })
      .then((response) => response.blob())
      .then((blob) => {
        const file = new File([blob], button.dataset.file, { type: "image/png" });
        if (navigator.canShare && navigator.canShare({ files: [file] })) {
          return navigator.share({ files: [file], title: button.dataset.title }).catch(() => {});
        }
        const link = document.createElement("a");
        link.href = URL.createObjectURL(file);
        link.download = file.name;
        document.body.append(link);
        link.click();
        link.remove();
      });
  });
})();
