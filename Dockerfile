# The judges' assistant as one image: the database is built when the image is built and
# never written again, so any number of containers can serve it side by side (README,
# "Serving more judges"). Build:  docker build -t rules-db .
# Run:    docker run --rm --read-only -p 8001:8001 rules-db
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
RUN python -m venv /opt/rules-db
ENV PATH=/opt/rules-db/bin:$PATH
COPY . .
# The wheel carries the corpus, the card aliases and the scenario library (package data).
RUN pip install --no-cache-dir --upgrade pip \
 && pip wheel --no-cache-dir --no-deps --wheel-dir /wheels . \
 && pip install --no-cache-dir /wheels/*.whl
# The metadata and the table counts are computed once here, not at each container start.
RUN mkdir /data \
 && rules-db build --db /data/rules.db \
 && python -c "from rules_db.serve import write_metadata; write_metadata('/data/rules.db')" \
 && datasette inspect /data/rules.db --inspect-file /data/inspect-data.json

FROM python:3.11-slim-bookworm
COPY --from=build /opt/rules-db /opt/rules-db
COPY --from=build /data /data
ENV PATH=/opt/rules-db/bin:$PATH \
    PORT=8001
USER nobody
EXPOSE 8001
# -i: immutable, read-only; PORT is set by hosts such as Cloud Run and Fly.
CMD ["sh", "-c", "exec datasette serve -i /data/rules.db --inspect-file /data/inspect-data.json --metadata /data/rules.metadata.json --host 0.0.0.0 --port \"$PORT\""]
