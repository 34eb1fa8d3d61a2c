# syntax=docker/dockerfile:1
# jobsd: a static binary on a distroless base, run as a non-root user.
#   docker build -t jobsd .
#   docker run -e DATABASE_URL=postgres://… -p 8080:8080 jobsd

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/jobsd ./cmd/jobsd

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/jobsd /usr/local/bin/jobsd
USER nonroot:nonroot
ENV JOBSD_ADDR=0.0.0.0:8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=4s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/jobsd", "healthcheck", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/jobsd"]
CMD ["serve"]
