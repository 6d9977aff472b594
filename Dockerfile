# blockprint as a container image: the binary as entrypoint, run as a non-root user, output under /work.
#
#   podman build --build-arg BLOCKPRINT_COMMIT=$(git rev-parse --short=12 HEAD) -t blockprint .
#   podman run --rm -v "$PWD/out:/work/out" blockprint build
#
# (docker build / docker run take the same arguments.) The README's "Container image" section has a
# Kubernetes Job array that splits a big case batch across pods with this image.
#
# Two stages: the build stage compiles the release binary with the pinned toolchain and Cargo.lock; the
# runtime stage is Debian slim (glibc, as the binary is built against; a shell, for the Job array's
# arithmetic) with nothing added but the binary, its licences and a user. The content, templates and fonts
# are compiled into the binary, so nothing else is copied.

ARG RUST_VERSION=1.95

FROM docker.io/library/rust:${RUST_VERSION}-slim-bookworm AS build
WORKDIR /src
# The files the binary is made from, as `cargo package` ships them (tests, fixtures and goldens stay out):
# the root package and the workspace's crates. The links crates/content/content, crates/render/templates
# and crates/render/fonts are copied as links and point at the folders copied beside them.
COPY Cargo.toml Cargo.lock build.rs ./
COPY src src
COPY crates crates
COPY content content
COPY templates templates
COPY fonts fonts
# There is no .git here: build.rs takes the commit for `blockprint --version` from this argument, and says
# "unknown" without it.
ARG BLOCKPRINT_COMMIT=
ENV BLOCKPRINT_COMMIT=${BLOCKPRINT_COMMIT}
# The crate registry and target folder are cache mounts, kept between builds of the image; the binary is
# copied out of the target folder in the same step, since a cache mount is not part of the layer.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin blockprint \
    && install -D -m 0755 target/release/blockprint /out/blockprint \
    && /out/blockprint --version

FROM docker.io/library/debian:bookworm-slim
# A fixed numeric id, so that Kubernetes can check runAsNonRoot and a volume can be given to it (fsGroup).
# Its home is the working folder, empty (no shell profiles): what a run writes is all that is in it.
RUN groupadd --gid 10001 blockprint \
    && useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /usr/sbin/nologin blockprint \
    && install -d -o blockprint -g blockprint -m 0755 /work
COPY --from=build /out/blockprint /usr/local/bin/blockprint
COPY README.md LICENSE-MIT LICENSE-APACHE LICENSE-fonts /usr/share/doc/blockprint/
USER 10001:10001
WORKDIR /work
LABEL org.opencontainers.image.title="blockprint" \
      org.opencontainers.image.description="Printable material and references for the Block by Block police-procedural RPG and its chase systems" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0" \
      org.opencontainers.image.source="https://github.com/blockprint-rpg/blockprint"
ENTRYPOINT ["/usr/local/bin/blockprint"]
CMD ["--help"]
