import { Link } from 'react-router';

export const NotFoundPage = () => (
  <section className="welcome">
    <h1>Page not found</h1>
    <Link to="/">Back to the welcome page</Link>
  </section>
);
