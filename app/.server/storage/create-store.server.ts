import { type AppConfig, ConfigError } from "../config/env.server.ts";
import { createLocalStore } from "./local-store.server.ts";
import type { MediaStore } from "./media-store.ts";
import { createS3Store } from "./s3-store.server.ts";

/** The media store the configuration asks for (`MEDIA_STORE`): local disk under DATA_DIR/media (default) or S3. */
export function createMediaStore(config: Pick<AppConfig, "media">): MediaStore {
  const { media } = config;
  switch (media.store) {
    case "local":
      return createLocalStore({ root: media.dir });
    case "s3":
      if (!media.s3) throw new ConfigError("Configuração inválida:\n  S3_BUCKET: obrigatório com MEDIA_STORE=s3");
      return createS3Store(media.s3);
    default: {
      const unknown: never = media.store;
      throw new ConfigError(`Configuração inválida:\n  MEDIA_STORE: armazenamento desconhecido ${JSON.stringify(unknown)}`);
    }
  }
}
