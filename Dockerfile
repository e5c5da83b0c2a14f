# Formward service image: `formward serve` and `formward worker` run from the same image.
# Node.js 26, the runtime (scripts/node.version), on Debian 13 (trixie) in every stage.
FROM node:26-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY scripts ./scripts
# tsc, then the workflow bundle (dist/workflow-bundle.js) the worker loads instead of bundling.
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:26-trixie-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY scripts ./scripts
# The prose of /docs, read at run time (src/http/docs/api-guide.ts).
COPY docs/api ./docs/api
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/formward.js"]
CMD ["serve"]
