console.log("bundled");
