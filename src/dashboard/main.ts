/** The dashboard page's entry (index.html): the shell, which loads each page on first visit. */
import './app.js';
