#!/usr/bin/env python3
"""Checks deploy/compose.yaml without Docker: the services a deployment of several replicas needs are there
(PostgreSQL, an S3-compatible store, the bucket's creation, failscope replicas, a load balancer); every replica
runs `serve` on PostgreSQL and an s3:// bucket with options the built binary accepts (`failscope serve --help`,
when the binary is given as argument); no secret is written in the file (only ${VARIABLE} references, each set in
deploy/example.env); services named in depends_on, the endpoint and the load balancer's upstream exist; files it
mounts and builds from exist.

    python3 scripts/check-compose.py [.build/debug/failscope]
"""
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    sys.exit("check-compose: PyYAML is needed (python3 -m pip install pyyaml)")

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
deploy = os.path.join(root, "deploy")
compose = yaml.safe_load(open(os.path.join(deploy, "compose.yaml")))
example = dict(
    line.split("=", 1) for line in open(os.path.join(deploy, "example.env")).read().splitlines()
    if line and not line.startswith("#"))
problems = []
services = compose.get("services", {})
images = {name: str(service.get("image", "")) for name, service in services.items()}


def need(condition, message):
    if not condition:
        problems.append(message)


need(any(image.startswith("postgres") for image in images.values()), "no PostgreSQL service")
need(any(image.startswith(("minio/minio", "chrislusf/seaweedfs")) for image in images.values()),
     "no S3-compatible service (minio/minio or chrislusf/seaweedfs)")
balancers = [name for name, image in images.items() if image.startswith(("nginx", "haproxy", "traefik"))]
need(balancers, "no load balancer service")
replicas = {name: service for name, service in services.items() if service.get("build") is not None}
need(replicas, "no failscope service (built from the repository's Dockerfile)")
count = sum(int(service.get("deploy", {}).get("replicas", 1)) for service in replicas.values())
need(count >= 2, f"{count} failscope replica(s); a deployment of several machines needs 2 or more")

help_text = ""
if len(sys.argv) > 1:
    help_text = subprocess.run([sys.argv[1], "help", "serve"], capture_output=True, text=True).stdout
    need("--artifacts" in help_text, f"{sys.argv[1]} help serve does not document --artifacts")

for name, service in replicas.items():
    context = os.path.normpath(os.path.join(deploy, service["build"]))
    need(os.path.exists(os.path.join(context, "Dockerfile")), f"{name}: no Dockerfile in its build context")
    command = [str(word) for word in service.get("command", [])]
    need(command[:1] == ["serve"], f"{name}: the command is not serve")
    options = dict(zip(command[1::2], command[2::2]))
    database = options.get("--database", "")
    need(database.startswith("postgres://"), f"{name}: --database is not a postgres:// URI")
    need(not re.match(r"postgres://[^@/]*:[^@/]*@", database), f"{name}: a password in the database URI")
    need(options.get("--artifacts", "").startswith("s3://"), f"{name}: --artifacts is not an s3:// bucket")
    for option in command[1::2]:
        need(not help_text or option in help_text, f"{name}: failscope serve has no option {option}")
    environment = service.get("environment", {})
    for variable in ("PGPASSWORD", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "FAILSCOPE_UPLOAD_TOKENS"):
        need(str(environment.get(variable, "")).startswith("${"), f"{name}: {variable} is not a ${{VARIABLE}}")
    endpoint = re.match(r"https?://([^:/]+)", str(environment.get("AWS_ENDPOINT_URL", "")))
    need(endpoint and endpoint.group(1) in services, f"{name}: AWS_ENDPOINT_URL does not name a service")
    need(str(environment.get("AWS_S3_FORCE_PATH_STYLE")) == "true", f"{name}: path-style addressing is not set")
    host = re.match(r"postgres://[^@]*@([^:/]+)", database)
    need(host and host.group(1) in services, f"{name}: the database host is not a service")

for name, service in services.items():
    for dependency in service.get("depends_on", {}):
        need(dependency in services, f"{name}: depends on unknown service {dependency}")
    for key, value in service.get("environment", {}).items():
        for variable in re.findall(r"\$\{(\w+)", str(value)):
            need(variable in example, f"{name}: {variable} is not in deploy/example.env")
        if re.search(r"(PASSWORD|SECRET|TOKEN)", key):
            need(str(value).startswith("${"), f"{name}: {key} holds a literal secret")
    for volume in service.get("volumes", []):
        source = str(volume).split(":")[0]
        if source.startswith("."):
            need(os.path.exists(os.path.join(deploy, source)), f"{name}: mounts missing file {source}")

for name in balancers:
    for volume in services[name].get("volumes", []):
        source = str(volume).split(":")[0]
        path = os.path.join(deploy, source)
        if source.endswith(".conf") and os.path.exists(path):
            upstreams = re.findall(r"server\s+([\w-]+):(\d+)", open(path).read())
            need(upstreams, f"{name}: {source} has no upstream server")
            for host, port in upstreams:
                need(host in replicas, f"{name}: upstream {host} is not a failscope service")
                need(port == "8080", f"{name}: upstream port {port} is not the image's 8080")

for problem in problems:
    print("compose: " + problem, file=sys.stderr)
print(f"Compose check: {'ok' if not problems else str(len(problems)) + ' problem(s)'}", file=sys.stderr)
sys.exit(1 if problems else 0)
